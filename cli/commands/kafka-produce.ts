import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { bufferCount, concatMap, lastValueFrom, map, type Observable } from 'rxjs';
import { openCsvSource } from '../../connectors/file/open-csv-source.js';
import { openJsonlSource } from '../../connectors/file/open-jsonl-source.js';
import { SyntheticSource } from '../../connectors/file/synthetic-source.js';
import { ensureTopic } from '../../connectors/kafka/ensure-topic.js';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import type { KafkaConnection } from '../../connectors/kafka/kafka-connection.js';
import type { LabelledRecord } from '../../operators/labelled-record.js';
import { ConfigError } from '../../src/core/config-error.js';
import { usageOf } from '../command-help.js';

const integer = (name: string, value: string | undefined, fallback: number, min = 1): number => {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`--${name} must be an integer >= ${min}`, { field: name, value });
  return n;
};

/** Records per send: a fifth of the round trips of 1,000 per send, and still requests of a few hundred KB per partition. */
const SEND_SIZE = 5_000;

/**
 * `vbstream kafka:produce`: writes labelled records to a topic as JSON values (what the Kafka source
 * of `vbstream run` reads): `{"x":[...],"y":...}`, or with `--features a,b,c` named fields
 * `{"a":…,"b":…,"c":…,"<label>":…}` (a synthetic stream then has one feature per name, its constant
 * bias column left out: learn it with `schema.intercept`), record i keyed `r<i>` to partition i mod P, in
 * sends of 5,000 with acks from all in-sync replicas, one at a time (each built while the one before
 * is under way), from an idempotent producer. The topic is created with `--partitions`
 * (default 1) if it does not exist. Records come from a CSV or JSON-lines file (bad rows are
 * reported on stderr and skipped) or a seeded synthetic stream. Prints the count on stdout.
 */
export async function kafkaProduceCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      brokers: { type: 'string' }, topic: { type: 'string' }, partitions: { type: 'string' }, file: { type: 'string' }, label: { type: 'string' }, features: { type: 'string' },
      synthetic: { type: 'string' }, kind: { type: 'string', default: 'logistic' }, dim: { type: 'string' }, seed: { type: 'string' }, 'kafka-client': { type: 'string' },
    },
  });
  const { brokers, topic, file } = values;
  if (brokers === undefined || topic === undefined || (file === undefined) === (values.synthetic === undefined)) throw new ConfigError(`${usageOf('kafka:produce')}\n(--brokers, --topic and one of --file or --synthetic are required)`);
  const partitions = integer('partitions', values.partitions, 1);
  const names = values.features?.split(',');
  const label = values.label ?? 'y';
  let records$: Observable<LabelledRecord>;
  if (file !== undefined) {
    const schema = { label, features: names };
    const badRecords = { next: (bad: { reason: string }) => { process.stderr.write(`skipped: ${bad.reason}\n`); } };
    const source = extname(file) === '.csv' ? await openCsvSource({ path: file, schema, badRecords }) : await openJsonlSource({ path: file, schema, badRecords });
    records$ = source.records$;
  } else {
    const kind = values.kind;
    if (kind !== 'logistic' && kind !== 'linear') throw new ConfigError('--kind must be logistic or linear', { field: 'kind', value: kind });
    if (names !== undefined && values.dim !== undefined) throw new ConfigError('give --dim or --features, not both: a synthetic stream has one feature per name', { field: 'dim', value: values.dim });
    const dim = names === undefined ? integer('dim', values.dim, 5) : names.length + 1;
    const synthetic = new SyntheticSource({ kind, dim, seed: integer('seed', values.seed, 1, 0), records: integer('synthetic', values.synthetic, 1) }).records$;
    // Named synthetic records carry the features after the constant bias column, which an intercept stands for.
    records$ = names === undefined ? synthetic : synthetic.pipe(map((record) => ({ ...record, x: record.x.subarray(1) })));
  }
  const valueOf = names === undefined
    ? (record: LabelledRecord) => JSON.stringify({ x: Array.from(record.x), y: record.y })
    : (record: LabelledRecord) => JSON.stringify(Object.fromEntries([...names.map((name, j) => [name, record.x[j]]), [label, record.y]]));
  const port = createKafkaPort({ brokers: brokers.split(','), clientId: `vbstream-produce-${process.pid}`, logLevel: 'nothing', client: values['kafka-client'] as KafkaConnection['client'] });
  const admin = port.admin();
  await admin.connect();
  await ensureTopic(admin, topic, { partitions });
  await admin.disconnect();
  const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  let sent = 0;
  let inFlight: Promise<unknown> = Promise.resolve();
  try {
    await lastValueFrom(records$.pipe(bufferCount(SEND_SIZE), concatMap(async (chunk) => {
      const messages = chunk.map((record) => {
        const i = sent++;
        return { key: `r${i}`, partition: i % partitions, value: valueOf(record) };
      });
      await inFlight; // one send at a time, in order; the next one is built while this one is under way
      inFlight = producer.send({ topic, messages, acks: -1 });
      inFlight.catch(() => undefined); // failing before it is awaited (while the next send is built) is not an unhandled rejection: the next await throws it
    })), { defaultValue: undefined });
    await inFlight;
  } finally {
    await producer.disconnect();
  }
  process.stdout.write(`produced ${sent.toLocaleString('en-US')} records to ${topic} (${partitions} partition${partitions === 1 ? '' : 's'})\n`);
  return 0;
}
