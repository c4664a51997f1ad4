import type { Batch } from '../src/core/batch.js';
import { pgLogitFamily } from '../src/models/pg-logit/family.js';
import { vbLogitFamily } from '../src/models/vb-logit/family.js';
import { formatCount, medianMs, throughput } from './measure.js';
import { syntheticLogistic } from './synthetic-logistic.js';

const d = 25;
const batchSize = 100;
const n = 100_000;
const data = syntheticLogistic(n, d, 2025);
const batches: Batch[] = Array.from({ length: n / batchSize }, (_, k) => ({
  x: data.x.subarray(k * batchSize * d, (k + 1) * batchSize * d), y: data.y.subarray(k * batchSize, (k + 1) * batchSize), n: batchSize, d,
}));

process.stdout.write(`pg-logit minibatch SVI (Algorithm 3), p = ${d}, |B| = ${batchSize}, N = ${formatCount(n)}, one core\n`);
let model = pgLogitFamily.create(d, { mode: 'svi', effectiveSize: n, prior: { covariance: 1 } });
let cursor = 0;
const rate = throughput(() => {
  if (cursor === batches.length) { model = pgLogitFamily.create(d, { mode: 'svi', effectiveSize: n, prior: { covariance: 1 } }); cursor = 0; }
  model.update(batches[cursor++]);
  return batchSize;
}, 2000);
process.stdout.write(`  ${formatCount(rate)} records/s (target ≥ 300,000/s), ${formatCount(rate / batchSize)} steps/s\n`);

const m = 10_000;
const cavi = { x: data.x.subarray(0, m * d), y: data.y.subarray(0, m), n: m, d };
process.stdout.write(`\npg-logit CAVI (Algorithm 2), n = ${formatCount(m)}, p = ${d}, prior N(0, 10·I), reference stop |ΔELBO| < 1e-10\n`);
let sweeps = 0;
const caviMs = medianMs(() => {
  const fit = pgLogitFamily.create(d);
  sweeps = fit.update(cavi).iterations ?? 0;
}, 5);
const vbMs = medianMs(() => vbLogitFamily.create(d).update(cavi), 5);
let vbFixedPasses = 0;
const vbFixedMs = medianMs(() => {
  const vb = vbLogitFamily.create(d, { alpha: 0.1 });
  vbFixedPasses = vb.update(cavi).iterations ?? 0;
}, 5);
process.stdout.write(`  to convergence: ${caviMs.toFixed(1)} ms, ${sweeps} sweeps, ${(caviMs / sweeps).toFixed(2)} ms per sweep\n`);
process.stdout.write(`  vb-logit batch fit (hyperprior, its own stop rule 1e-5 relative): ${vbMs.toFixed(1)} ms; ratio pg-cavi / vb-logit = ${(caviMs / vbMs).toFixed(2)}\n`);
process.stdout.write(`  vb-logit with fixed α = 0.1 (same prior): ${vbFixedMs.toFixed(1)} ms, ${vbFixedPasses} passes; ratio pg-cavi / vb-logit(α) = ${(caviMs / vbFixedMs).toFixed(2)}\n`);
