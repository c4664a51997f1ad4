import { parseArgs } from 'node:util';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import type { KafkaConnection } from '../../connectors/kafka/kafka-connection.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { PosteriorCombiner } from '../../connectors/kafka/posterior-combiner.js';
import { reachBrokers } from '../../connectors/kafka/reach-brokers.js';
import { ConfigError } from '../../src/core/config-error.js';
import { usageOf } from '../command-help.js';

/**
 * `vbstream kafka:combine`, the combiner service: every interval, merges the latest per-partition
 * snapshots of an additive family (model `NAME`, default `<family>@<topic>`, as `vbstream run` and
 * the learner service name it) and, when they changed, publishes the global posterior under
 * `NAME/global` in the snapshot topic (default `<topic>.snapshots`). Prints a JSON line per
 * publication; SIGTERM/SIGINT stop it (exit 0).
 */
export async function kafkaCombineCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      brokers: { type: 'string' }, topic: { type: 'string' }, family: { type: 'string' }, dim: { type: 'string' }, model: { type: 'string' },
      'snapshot-topic': { type: 'string' }, 'every-ms': { type: 'string' }, 'family-options': { type: 'string' }, 'kafka-client': { type: 'string' },
    },
  });
  const { brokers, topic, family, dim } = values;
  if (brokers === undefined || topic === undefined || family === undefined || dim === undefined) throw new ConfigError(`${usageOf('kafka:combine')}\n(--brokers, --topic, --family and --dim are required)`);
  const everyMs = Number(values['every-ms'] ?? 1000);
  if (!(everyMs > 0)) throw new ConfigError('--every-ms must be a positive number', { field: 'every-ms', value: values['every-ms'] });
  const d = Number(dim);
  if (!Number.isInteger(d) || d < 1) throw new ConfigError('--dim must be a positive integer', { field: 'dim', value: dim });
  let familyOptions: unknown;
  try {
    familyOptions = values['family-options'] === undefined ? undefined : JSON.parse(values['family-options']);
  } catch (cause) {
    throw new ConfigError(`--family-options is not valid JSON: ${(cause as Error).message}`, { field: 'family-options', value: values['family-options'] }, { cause });
  }
  const settings = { model: values.model ?? `${family}@${topic}`, family, dim: d, topic, familyOptions };
  PosteriorCombiner.check(settings);
  const brokerList = brokers.split(',');
  const port = createKafkaPort({ brokers: brokerList, clientId: `vbstream-combiner-${process.pid}`, logLevel: 'nothing', client: values['kafka-client'] as KafkaConnection['client'] });
  await reachBrokers(port, brokerList);
  const store = await KafkaSnapshotStore.open(port, { topic: values['snapshot-topic'] ?? `${topic}.snapshots` });
  const combiner = new PosteriorCombiner(store, settings);
  const admin = port.admin();
  await admin.connect();
  let stopped = false;
  let wake: () => void = () => undefined;
  const stop = (): void => { stopped = true; wake(); };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  let published = '';
  try {
    while (!stopped) {
      const partitions = (await admin.fetchTopicOffsets(topic)).map((p) => p.partition).sort((a, b) => a - b);
      const combined = await combiner.combine(partitions);
      if (combined.version !== published && combined.version !== '') {
        await combiner.publish(combined);
        published = combined.version;
        process.stdout.write(`${JSON.stringify({ type: 'published', version: combined.version, records: combined.records, partitions: combined.partitions, skipped: combined.skipped })}\n`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, everyMs);
        wake = () => { clearTimeout(timer); resolve(); };
      });
    }
  } finally {
    process.removeListener('SIGTERM', stop);
    process.removeListener('SIGINT', stop);
    await admin.disconnect();
    await store.close();
  }
  return 0;
}
