import { parseArgs } from 'node:util';
import { encodeSnapshot } from '../src/core/encode-snapshot.js';
import { VbstreamError } from '../src/core/vbstream-error.js';
import { VbLogitOnlineModel } from '../src/models/vb-logit/online-model.js';
import { Rng } from '../src/rng/rng.js';
import { MetricsServer } from '../monitoring/metrics-server.js';
import { PipelineMetrics } from '../monitoring/pipeline-metrics.js';
import { Readiness } from '../monitoring/readiness.js';

/**
 * A monitored stream, until `vbstream run` carries the metrics: a seeded synthetic logistic stream
 * (known weights, a bias column) flows record by record through `vb-logit-online` with
 * test-then-train scoring, at a bounded rate, until SIGINT/SIGTERM. Every `--bad-every`-th record
 * has a NaN feature: the model refuses it and it is counted as rejected and dead-lettered. Every
 * `--snapshot-every` records the posterior is encoded as a snapshot (its bytes counted, not
 * written). Metrics, /healthz and /readyz are served on 127.0.0.1:`--port` (0 = any free port);
 * the first stdout line is `metrics: http://127.0.0.1:<port>/metrics`.
 *
 *   node dist/examples/monitored-stream.js [--port 9464] [--rate 5000] [--dim 10] [--seed 1]
 *        [--bad-every 5000] [--snapshot-every 10000]
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9464' }, rate: { type: 'string', default: '5000' }, dim: { type: 'string', default: '10' },
    seed: { type: 'string', default: '1' }, 'bad-every': { type: 'string', default: '5000' }, 'snapshot-every': { type: 'string', default: '10000' },
  },
  strict: true,
});
const integer = (name: keyof typeof values, min: number): number => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min) {
    process.stderr.write(`--${name} must be an integer >= ${min}, got ${values[name]}\n`);
    process.exit(2);
  }
  return value;
};
const port = integer('port', 0);
const rate = integer('rate', 1);
const d = integer('dim', 2);
const seed = integer('seed', 1);
const badEvery = integer('bad-every', 1);
const snapshotEvery = integer('snapshot-every', 1);

const metrics = new PipelineMetrics({ pipeline: 'monitored-stream' });
const readiness = new Readiness(['model-restored', 'source-consuming']);
const server = new MetricsServer({ metrics, readiness, port });
const boundPort = await server.listen();
process.stdout.write(`metrics: http://127.0.0.1:${boundPort}/metrics\n`);

const rng = Rng.fromSeed(seed);
const truth = Float64Array.from({ length: d }, (_, j) => (j === 0 ? -0.5 : rng.normal()));
const model = VbLogitOnlineModel.create(d);
const recorder = metrics.model(model.family);
readiness.set('model-restored');
const x = new Float64Array(d);
const y = new Float64Array(1);
let seen = 0;
const tickMs = 50;
const perTick = Math.max(1, Math.round((rate * tickMs) / 1000));

function step(): void {
  seen++;
  x[0] = 1;
  let score = truth[0];
  for (let j = 1; j < d; j++) {
    x[j] = rng.normal();
    score += truth[j] * x[j];
  }
  y[0] = rng.nextDouble() < 1 / (1 + Math.exp(-score)) ? 1 : 0;
  if (seen % badEvery === 0) x[1] = Number.NaN;
  try {
    if (seen % badEvery !== 0) {
      const predictive = model.predict(x);
      recorder.recordPrediction(predictive.prob, y[0], -predictive.logProb(y[0]));
    }
    const start = performance.now();
    const stats = model.update({ x, y, n: 1, d, firstRow: seen });
    recorder.recordLearned(stats.records, (performance.now() - start) / 1000);
    if (stats.objective !== undefined) recorder.setObjective(stats.objective);
  } catch (error) {
    if (!(error instanceof VbstreamError)) throw error;
    recorder.recordRejected(error.kind);
    metrics.recordDeadLetter(error.kind);
  }
  if (seen % snapshotEvery === 0) recorder.recordSnapshot(encodeSnapshot(model.snapshot()).byteLength);
}

const timer = setInterval(() => {
  for (let i = 0; i < perTick; i++) step();
  recorder.setPosteriorSummary(model.summary());
  readiness.set('source-consuming');
}, tickMs);

const stop = (): void => {
  clearInterval(timer);
  server.close().then(() => process.stdout.write(`stopped after ${seen} records\n`), (error: unknown) => {
    process.stderr.write(`closing the metrics server failed: ${String(error)}\n`);
    process.exitCode = 1;
  });
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
