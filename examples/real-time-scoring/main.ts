import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { SnapshotDirectory, SyntheticGenerator } from 'vbstream/files';
import { createKafkaPort } from 'vbstream/kafka';
import { getFamily } from 'vbstream';
import { runLoadTest } from './load-test.js';
import { createScoringServer, ScoringService } from './scoring-service.js';
import { watchSnapshotDirectory } from './watch-snapshot-directory.js';
import { watchSnapshotTopic } from './watch-snapshot-topic.js';

/**
 * The real-time scoring example.
 *
 *   node dist/examples/real-time-scoring/main.js [--snapshots example-output/real-time-scoring/snapshots]
 *        [--requests 5000] [--concurrency 8] [--max-seconds 10]
 *   node dist/examples/real-time-scoring/main.js --serve [--snapshots ./snapshots] [--port 8080]
 *   node dist/examples/real-time-scoring/main.js --serve --kafka-brokers 127.0.0.1:9092 --snapshot-topic T
 *        [--snapshot-key model/global] [--port 8080]
 *
 * Demo (default): learns a seeded synthetic logistic stream (d = 5) with `vb-logit-online`, saves a
 * snapshot, serves it on 127.0.0.1 (a free port), runs a bounded loopback load test and, half-way
 * through, saves a newer snapshot that the service hot-swaps; prints requests/s, p50/p99 latency and
 * the model versions the answers carried. `--serve`: serves the snapshot directory (e.g. the one
 * `npm start` writes) on `--port` until Ctrl-C, swapping in each newer snapshot; with
 * `--kafka-brokers`, the snapshots under `--snapshot-key` of the compacted `--snapshot-topic` instead.
 */
const { values } = parseArgs({
  options: {
    snapshots: { type: 'string' }, serve: { type: 'boolean', default: false }, port: { type: 'string', default: '8080' },
    'kafka-brokers': { type: 'string' }, 'snapshot-topic': { type: 'string' }, 'snapshot-key': { type: 'string', default: 'model/global' },
    requests: { type: 'string', default: '5000' }, concurrency: { type: 'string', default: '8' }, 'max-seconds': { type: 'string', default: '10' },
  },
  strict: true,
});
const positive = (name: 'port' | 'requests' | 'concurrency' | 'max-seconds', min: number): number => {
  const value = Number(values[name]);
  if (!Number.isFinite(value) || value < min) {
    process.stderr.write(`--${name} must be a number >= ${min}, got ${values[name]}\n`);
    process.exit(2);
  }
  return value;
};
const onError = (error: Error): void => { process.stderr.write(`snapshot skipped: ${error.message}\n`); };

if (values['kafka-brokers'] !== undefined && (!values.serve || values['snapshot-topic'] === undefined)) {
  process.stderr.write('--kafka-brokers needs --serve and --snapshot-topic\n');
  process.exit(2);
}

if (values.serve) {
  const brokers = values['kafka-brokers']?.split(',');
  const source = brokers === undefined ? values.snapshots ?? './snapshots' : `${values['snapshot-topic']} key ${values['snapshot-key']}`;
  const snapshots$ = brokers === undefined
    ? watchSnapshotDirectory(source, { onError })
    : watchSnapshotTopic(createKafkaPort({ brokers }), { topic: values['snapshot-topic']!, key: values['snapshot-key'], onError });
  const service = new ScoringService(snapshots$);
  const server = createScoringServer(service);
  server.listen(positive('port', 0), '127.0.0.1', () => {
    process.stdout.write(`scoring ${source} on http://127.0.0.1:${(server.address() as AddressInfo).port}/score\n`);
  });
  const stop = (): void => {
    service.close();
    server.close(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  const dim = 5;
  const store = new SnapshotDirectory(values.snapshots ?? 'example-output/real-time-scoring/snapshots', 3);
  const data = new SyntheticGenerator({ kind: 'logistic', dim, seed: 1 });
  const model = getFamily('vb-logit-online').create(dim, { priorPrecision: 1 });
  const learnAndSave = async (records: number): Promise<void> => {
    const x = new Float64Array(records * dim);
    const y = new Float64Array(records);
    for (let i = 0; i < records; i++) y[i] = data.next(x.subarray(i * dim, (i + 1) * dim));
    model.update({ x, y, n: records, d: dim });
    await store.save({ snapshot: model.snapshot(), recordsSeen: model.recordsSeen, positions: { synthetic: data.generated }, createdAt: new Date().toISOString(), reason: 'records' });
  };
  await learnAndSave(500);
  const service = new ScoringService(watchSnapshotDirectory(store.dir, { pollMs: 100, onError, family: model.family, dim }));
  const server = createScoringServer(service);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/score`;
  while (service.version() === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
  process.stdout.write(`serving ${JSON.stringify(service.version())} at ${url}\n`);
  const requests = positive('requests', 1);
  const maxMs = positive('max-seconds', 0.1) * 1000;
  const rows = [[1, 0.5, -1, 0.2, 2], [1, -0.3, 0.8, 1.1, -0.7]];
  const swap = setTimeout(() => { void learnAndSave(20_000).then(() => process.stdout.write('saved a newer snapshot (20,500 records) during the load test\n')); }, Math.min(maxMs / 2, 1000));
  const report = await runLoadTest(url, () => ({ rows }), { requests, concurrency: positive('concurrency', 1), maxMs });
  clearTimeout(swap);
  process.stdout.write(`load test: ${report.requests} requests (2 rows each) in ${report.seconds.toFixed(2)} s, ${report.ok} ok, ${report.failed} failed: ` +
    `${report.requestsPerSecond.toFixed(0)} requests/s, p50 ${report.p50Ms.toFixed(2)} ms, p99 ${report.p99Ms.toFixed(2)} ms; model versions served: ${report.sequences.join(', ')}\n`);
  const answer = await (await fetch(url, { method: 'POST', body: JSON.stringify({ x: rows[0] }) })).json();
  process.stdout.write(`POST /score {"x":${JSON.stringify(rows[0])}} → ${JSON.stringify(answer)}\n`);
  const bad = await fetch(url, { method: 'POST', body: JSON.stringify({ x: [1, 2] }) });
  process.stdout.write(`POST /score {"x":[1,2]} → ${bad.status} ${JSON.stringify(await bad.json())}\n`);
  service.close();
  server.close();
}
