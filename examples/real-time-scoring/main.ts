import { parseArgs } from 'node:util';
import { getFamily } from 'vbstream';
import { SnapshotDirectory, SyntheticGenerator } from 'vbstream/files';
import { ScoringService, SnapshotDirectorySource } from 'vbstream/serve';

/**
 * The real-time scoring example: `vbstream serve` as a library, `ScoringService` from `vbstream/serve`.
 *
 *   npm run example:scoring -- [--snapshots example-output/real-time-scoring/snapshots] [--requests 2000] [--concurrency 8]
 *
 * Learns a seeded synthetic logistic stream (d = 5) with `vb-logit-online` and saves a snapshot to a
 * snapshot directory, as `vbstream run` does; serves that directory on 127.0.0.1 (a free port); sends
 * `--requests` single-row predictions from `--concurrency` clients and, after the first half, saves a
 * newer snapshot, which the service hot-swaps while the requests go on; prints requests/s, p50/p99
 * latency, the posterior versions that answered, one answer and one refusal. The same service from the
 * command line: `vbstream serve --snapshot-dir <dir>` (docs/guide.md, "Scoring service").
 */
const { values } = parseArgs({ options: { snapshots: { type: 'string', default: 'example-output/real-time-scoring/snapshots' }, requests: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '8' } }, strict: true });
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
if (!(Number.isInteger(requests) && requests >= 2 && Number.isInteger(concurrency) && concurrency >= 1)) throw new Error('--requests must be an integer ≥ 2 and --concurrency ≥ 1');

const dim = 5;
const store = new SnapshotDirectory(values.snapshots, 3);
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

let swapped: () => void = () => undefined;
const newer = new Promise<void>((resolve) => { swapped = resolve; });
const service = new ScoringService({
  source: new SnapshotDirectorySource(store.dir, { pollMs: 100 }), family: 'vb-logit-online', dim, port: 0, title: 'real-time-scoring',
  onEvent: (event) => { if (event.type === 'posterior' && event.records > 500) swapped(); },
});
const base = `http://127.0.0.1:${await service.start()}`;
process.stdout.write(`serving ${service.posterior.current!.version} (${model.family}, d = ${dim}, 500 records) at ${base}/predict; live page ${base}/, metrics ${base}/metrics\n`);

const predict = async (body: unknown): Promise<{ status: number; json: any }> => {
  const response = await fetch(`${base}/predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
};
const latencies: number[] = [];
const versions = new Map<string, number>();
let sent = 0;
let failed = 0;
const client = async (): Promise<void> => {
  while (sent < requests) {
    const i = sent++;
    // Half-way, this client saves a newer snapshot and waits until it is served; the others go on meanwhile.
    if (i === Math.floor(requests / 2)) await Promise.all([learnAndSave(20_000), newer]);
    const started = performance.now();
    const reply = await predict({ x: [1, Math.sin(i), Math.cos(i), 0.5, -0.2] });
    if (reply.status !== 200) failed++;
    else {
      latencies.push(performance.now() - started);
      versions.set(reply.json.version, (versions.get(reply.json.version) ?? 0) + 1);
    }
  }
};
const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, client));
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const ms = (q: number): string => `${latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(2)} ms`;
process.stdout.write(`${requests} requests from ${concurrency} clients in ${seconds.toFixed(2)} s: ${Math.round(latencies.length / seconds)} requests/s, p50 ${ms(0.5)}, p99 ${ms(0.99)}, ${failed} failed\n`);
process.stdout.write(`answered by: ${[...versions].map(([version, n]) => `${version} (${n})`).join(', ')}\n`);
process.stdout.write(`one answer: ${JSON.stringify((await predict({ x: [1, 0.5, -1, 0.2, 2], level: 0.95 })).json)}\n`);
process.stdout.write(`a row of 2 features: ${JSON.stringify(await predict({ x: [1, 0.5] }))}\n`);
await service.stop();
