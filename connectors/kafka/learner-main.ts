#!/usr/bin/env node
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { endpointUrl } from '../../monitoring/endpoint-url.js';
import { LiveView } from '../../monitoring/live-view.js';
import { MetricsServer } from '../../monitoring/metrics-server.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { Readiness } from '../../monitoring/readiness.js';
import { createKafkaPort } from './create-kafka-port.js';
import type { KafkaConnection } from './kafka-connection.js';
import { KafkaSnapshotStore } from './kafka-snapshot-store.js';
import type { LearnerEvent } from './learner-event.js';
import { PartitionedLearner } from './partitioned-learner.js';
import { serveUntilSignal } from './serve-until-signal.js';

/** Usage of the partitioned learner service. */
const LEARNER_USAGE = `node dist/connectors/kafka/learner-main.js --brokers host:port --topic T --group G --family vb-linear --dim D
    [--model NAME] [--snapshot-topic T] [--snapshot-every N] [--chunk-size N] [--session-timeout-ms N] [--features a,b,c] [--label y]
    [--max-bytes N] [--family-options '<json>'] [--in-process] [--kafka-client kafkajs|platformatic] [--metrics-port N [--metrics-host H]] [--kill-at snapshot-writing|snapshot-durable|committed:N]
  One model per assigned partition (each in its own worker thread; --in-process: in this thread), snapshots to a compacted topic, offsets committed after the
  snapshot is durable. Prints its events as JSON lines; SIGTERM/SIGINT snapshot, commit and exit 0.
  --metrics-port serves /metrics, /healthz, /readyz and the live page / on --metrics-host (default 127.0.0.1; port 0 picks a free one,
  named on stderr).
  --kill-at (crash testing) SIGKILLs the process at the N-th event of that type (snapshot-writing:
  while the snapshot is in flight).`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      brokers: { type: 'string' }, topic: { type: 'string' }, group: { type: 'string' }, family: { type: 'string' }, dim: { type: 'string' },
      model: { type: 'string' }, 'snapshot-topic': { type: 'string' }, 'snapshot-every': { type: 'string' }, 'chunk-size': { type: 'string' }, 'session-timeout-ms': { type: 'string' },
      features: { type: 'string' }, label: { type: 'string' }, 'max-bytes': { type: 'string' }, 'family-options': { type: 'string' }, 'kill-at': { type: 'string' },
      'metrics-port': { type: 'string' }, 'metrics-host': { type: 'string' },
      'in-process': { type: 'boolean', default: false }, 'kafka-client': { type: 'string' },
    },
  });
  const { brokers, topic, group, family, dim } = values;
  if (brokers === undefined || topic === undefined || group === undefined || family === undefined || dim === undefined) {
    process.stderr.write(`${LEARNER_USAGE}\n`);
    return 2;
  }
  const model = values.model ?? `${family}@${topic}`;
  const [killType, killCount] = (values['kill-at'] ?? '').split(':');
  let seen = 0;
  const onEvent = (event: LearnerEvent): void => {
    process.stdout.write(`${JSON.stringify(event)}\n`);
    if (event.type === killType && ++seen === Number(killCount)) {
      if (event.type === 'snapshot-writing') setImmediate(() => process.kill(process.pid, 'SIGKILL'));
      else process.kill(process.pid, 'SIGKILL');
    }
  };
  const port = createKafkaPort({ brokers: brokers.split(','), clientId: `vbstream-learner-${process.pid}`, client: values['kafka-client'] as KafkaConnection['client'] });
  const store = await KafkaSnapshotStore.open(port, { topic: values['snapshot-topic'] ?? `${topic}.snapshots` });
  const metrics = values['metrics-port'] === undefined ? undefined : new PipelineMetrics({ pipeline: model });
  const readiness = metrics === undefined ? undefined : new Readiness();
  let server: MetricsServer | undefined;
  if (metrics !== undefined && readiness !== undefined) {
    const live = new LiveView({ metrics, title: model });
    if (values.features !== undefined) live.setFeatureNames(values.features.split(','));
    const host = values['metrics-host'] ?? '127.0.0.1';
    server = new MetricsServer({ metrics, readiness, live, host, port: Number(values['metrics-port']) });
    const served = await server.listen();
    live.start();
    const base = endpointUrl(host, served);
    process.stderr.write(`metrics: ${base}metrics (live view: ${base})\n`);
  }
  const learner = new PartitionedLearner(port, store, {
    topic, groupId: group, model, family,
    familyOptions: values['family-options'] === undefined ? undefined : JSON.parse(values['family-options']),
    schema: {
      dim: Number(dim),
      features: values.features?.split(','),
      label: values.label,
      maxBytes: values['max-bytes'] === undefined ? undefined : Number(values['max-bytes']),
    },
    snapshotEvery: values['snapshot-every'] === undefined ? undefined : Number(values['snapshot-every']),
    chunkSize: values['chunk-size'] === undefined ? undefined : Number(values['chunk-size']),
    sessionTimeoutMs: values['session-timeout-ms'] === undefined ? undefined : Number(values['session-timeout-ms']),
    worker: !values['in-process'],
    evaluate: metrics !== undefined,
    metrics, readiness,
    onEvent,
  });
  return serveUntilSignal(learner, 'learner', () => Promise.all([store.close(), server?.close()]));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
