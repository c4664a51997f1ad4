import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type LocalKafka, startLocalKafka } from '../../scripts/local-kafka.js';
import { runKafkaConsumer } from './run-kafka-consumer.js';

/**
 * The Kafka consumer example (`npm run example:kafka-consumer`).
 *
 *   node dist/examples/kafka-consumer/main.js [--brokers host:port] [--records 20000] [--metrics-port 0]
 *
 * Without `--brokers` it starts the local single-node broker (scripts/local-kafka.ts) and stops it
 * at the end. Produces a seeded stream to a fresh topic, learns it per partition with metrics on
 * 127.0.0.1, prints progress and the metrics URL, and exits once every partition has caught up.
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
  const topic = `kafka-consumer-${randomUUID().slice(0, 8)}`;
  const result = await runKafkaConsumer({
    brokers: values.brokers ?? (broker as LocalKafka).bootstrap, topic, records, metricsPort, out: process.stdout,
    cli: join(dirname(fileURLToPath(import.meta.url)), '../../cli/vbstream.js'),
  });
  process.stdout.write(`learned ${result.recordsSeen.toLocaleString('en-US')} records; snapshots in ${result.snapshot}\n`);
} finally {
  if (broker !== undefined) {
    await broker.stop();
    process.stdout.write('broker stopped\n');
  }
}
