import type { Batch } from '../src/core/batch.js';
import { PgLogitModel } from '../src/models/pg-logit/model.js';
import { VbLogitModel } from '../src/models/vb-logit/model.js';
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
let model = PgLogitModel.create(d, { mode: 'svi', effectiveSize: n, prior: { cov: 1 } });
let cursor = 0;
const rate = throughput(() => {
  if (cursor === batches.length) { model = PgLogitModel.create(d, { mode: 'svi', effectiveSize: n, prior: { cov: 1 } }); cursor = 0; }
  model.update(batches[cursor++]);
  return batchSize;
}, 2000);
process.stdout.write(`  ${formatCount(rate)} records/s (target ≥ 300,000/s), ${formatCount(rate / batchSize)} steps/s\n`);

const m = 10_000;
const cavi = { x: data.x.subarray(0, m * d), y: data.y.subarray(0, m), n: m, d };
process.stdout.write(`\npg-logit CAVI (Algorithm 2), n = ${formatCount(m)}, p = ${d}, prior N(0, 10·I), reference stop |ΔELBO| < 1e-10\n`);
let sweeps = 0;
const caviMs = medianMs(() => {
  const fit = PgLogitModel.create(d);
  sweeps = fit.update(cavi).iterations ?? 0;
}, 5);
const vbMs = medianMs(() => VbLogitModel.create('vb-logit', d, false).update(cavi), 5);
let vbFixedPasses = 0;
const vbFixedMs = medianMs(() => {
  const vb = VbLogitModel.create('vb-logit', d, false, { alpha: 0.1 });
  vbFixedPasses = vb.update(cavi).iterations ?? 0;
}, 5);
process.stdout.write(`  to convergence: ${caviMs.toFixed(1)} ms, ${sweeps} sweeps, ${(caviMs / sweeps).toFixed(2)} ms per sweep\n`);
process.stdout.write(`  vb-logit batch fit (hyperprior, its own stop rule 1e-5 relative): ${vbMs.toFixed(1)} ms; ratio pg-cavi / vb-logit = ${(caviMs / vbMs).toFixed(2)}\n`);
process.stdout.write(`  vb-logit with fixed α = 0.1 (same prior): ${vbFixedMs.toFixed(1)} ms, ${vbFixedPasses} passes; ratio pg-cavi / vb-logit(α) = ${(caviMs / vbFixedMs).toFixed(2)}\n`);
