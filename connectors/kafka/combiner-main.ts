#!/usr/bin/env node
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createKafkajsPort } from './kafkajs-port.js';
import { KafkaSnapshotStore } from './kafka-snapshot-store.js';
import { PosteriorCombiner } from './posterior-combiner.js';

/** Usage of the combiner service. */
const COMBINER_USAGE = `node dist/connectors/kafka/combiner-main.js --brokers host:port --topic T --family vb-linear --dim D
    [--model NAME] [--snapshot-topic T] [--every-ms 1000] [--family-options '<json>']
  Every interval, merges the latest per-partition snapshots of an additive family and, when they
  changed, publishes the global posterior under model/global in the snapshot topic. Prints a JSON
  line per publication; SIGTERM/SIGINT exit 0.`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      brokers: { type: 'string' }, topic: { type: 'string' }, family: { type: 'string' }, dim: { type: 'string' }, model: { type: 'string' },
      'snapshot-topic': { type: 'string' }, 'every-ms': { type: 'string' }, 'family-options': { type: 'string' },
    },
  });
  const { brokers, topic, family, dim } = values;
  if (brokers === undefined || topic === undefined || family === undefined || dim === undefined) {
    process.stderr.write(`${COMBINER_USAGE}\n`);
    return 2;
  }
  const port = createKafkajsPort({ brokers: brokers.split(','), clientId: `vbstream-combiner-${process.pid}` });
  const store = await KafkaSnapshotStore.open(port, { topic: values['snapshot-topic'] ?? `${topic}.snapshots` });
  const combiner = new PosteriorCombiner(store, {
    model: values.model ?? `${family}@${topic}`, family, dim: Number(dim), topic,
    familyOptions: values['family-options'] === undefined ? undefined : JSON.parse(values['family-options']),
  });
  const admin = port.admin();
  await admin.connect();
  const everyMs = Number(values['every-ms'] ?? 1000);
  let stopped = false;
  const stop = (): void => { stopped = true; };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  let published = '';
  while (!stopped) {
    const partitions = (await admin.fetchTopicOffsets(topic)).map((p) => p.partition).sort((a, b) => a - b);
    const combined = await combiner.combine(partitions);
    if (combined.version !== published && combined.version !== '') {
      await combiner.publish(combined);
      published = combined.version;
      process.stdout.write(`${JSON.stringify({ type: 'published', version: combined.version, records: combined.records })}\n`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  await admin.disconnect();
  await store.close();
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
