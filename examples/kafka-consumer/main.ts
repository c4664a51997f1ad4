import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createKafkaPort } from 'vbstream/kafka';
import { type LocalKafka, startLocalKafka } from '../../scripts/local-kafka.js';
import { startLearnerService } from './learner-service.js';
import { produceRecords } from './produce-records.js';

/**
 * The Kafka consumer example (`npm run example:kafka-consumer`).
 *
 *   node dist/examples/kafka-consumer/main.js [--brokers host:port] [--records 20000] [--metrics-port 0]
 *
 * Without `--brokers` it starts the local single-node broker (scripts/local-kafka.ts) and stops it
 * at the end. Produces a seeded stream to a fresh 2-partition topic, runs the learner service of
 * `learner-service.ts` (public API only) with metrics on 127.0.0.1, prints progress and the metrics
 * URL, and stops once every record is learned.
 */
const { values } = parseArgs({ options: { brokers: { type: 'string' }, records: { type: 'string', default: '20000' }, 'metrics-port': { type: 'string', default: '0' } }, strict: true });
const records = Number(values.records);
const metricsPort = Number(values['metrics-port']);
if (!Number.isInteger(records) || records < 1 || !Number.isInteger(metricsPort) || metricsPort < 0) {
  process.stderr.write('--records must be a positive integer and --metrics-port an integer >= 0\n');
  process.exit(2);
}
let broker: LocalKafka | undefined;
if (values.brokers === undefined) {
  process.stdout.write('no --brokers: starting the local Kafka broker (scripts/local-kafka.ts) ...\n');
  broker = await startLocalKafka({ timeoutMs: 180_000 });
  process.stdout.write(`broker up at ${broker.bootstrap}\n`);
}
try {
  const brokers = [values.brokers ?? (broker as LocalKafka).bootstrap];
  const topic = `kafka-consumer-${randomUUID().slice(0, 8)}`;
  await produceRecords(createKafkaPort({ brokers, logLevel: 'nothing' }), topic, { records, dim: 5, partitions: 2, seed: 7 });
  process.stdout.write(`produced ${records.toLocaleString('en-US')} records to ${topic}\n`);
  let fatal: Error | undefined;
  const service = await startLearnerService({ connection: { brokers, clientId: 'kafka-consumer-example' }, topic, dim: 5, metricsPort, onFatal: (error) => { fatal = error; } });
  process.stdout.write(`metrics: http://127.0.0.1:${service.metricsPort}/metrics\n`);
  while (service.learner.recordsApplied < records && fatal === undefined) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.stdout.write(`learned ${service.learner.recordsApplied.toLocaleString('en-US')} records\n`);
  }
  await service.stop();
  if (fatal !== undefined) throw fatal;
  process.stdout.write(`learned ${service.learner.recordsApplied.toLocaleString('en-US')} records; snapshots in ${topic}.snapshots\n`);
} finally {
  if (broker !== undefined) {
    await broker.stop();
    process.stdout.write('broker stopped\n');
  }
}
