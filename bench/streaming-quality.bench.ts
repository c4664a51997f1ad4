import { createModel } from '../src/registry.js';
import type { OnlineModel } from '../src/core/online-model.js';
import { gaussianKl } from '../src/gaussian/gaussian-kl.js';
import { AdfModel } from '../src/models/adf/family.js';
import { PgLogitModel } from '../src/models/pg-logit/family.js';
import { VbLogitModel } from '../src/models/vb-logit/family.js';
import { VbLogitOnlineModel } from '../src/models/vb-logit/online-family.js';
import { ViPerModel } from '../src/models/vi-per/family.js';
import { scoreCoverage } from './score-coverage.js';
import { syntheticLogistic } from './synthetic-logistic.js';

/**
 * Streaming quality of the Gaussian-posterior logistic families (issue 16): on seeded logistic data,
 * each family's posterior after one batch of all records and after the same records streamed in 10
 * minibatches, both compared by KL(yardstick ‖ q) with the yardstick the one-batch `vi-gh` fit (the
 * exact-ELBO full-covariance Gaussian, within KL 0.03 of NUTS on such data). Prints the two KLs and
 * their ratio (target: streamed within 2× of the family's own one-batch fit), and KL(the family's own one-batch fit ‖ streamed). Probit models are left out (their
 * coefficients live on another scale). `vi-gh` and `vi-per` also with `replay: 0` (plain streaming VB, the behaviour before the replay) and `replay: 300`;
 * `pg-logit` and `vb-logit` (replayed local ξ, docs/guide.md) also with `replay: 0` and `replay: 300`.
 * Then `pg-logit` and `vb-logit` on a stream 10 times their default replay, and the cost of the replay:
 * records per second of `sda` updates of 100 records on a longer stream.
 * First, the README's family table (`node dist/bench/streaming-quality.bench.js table` prints it alone):
 * each family with its defaults, n = 5,000, p = 10, streamed in 10 minibatches: KL(one-batch vi-gh ‖
 * streamed q), the coverage of its 90% intervals of the score xᵀβ under the one-batch vi-gh posterior
 * (mean over the stream's first 1,000 rows of the yardstick's probability inside q's interval), and
 * records per CPU-second of the streamed updates (a second run, after one that warms up the JIT).
 * The other streaming families' rows (other likelihoods, other yardsticks) are printed by
 * bench/family-table.bench.ts.
 */
const FAMILIES: readonly (readonly [string, { replay?: number; window?: number }])[] = [
  ['vi-gh', {}], ['vi-gh', { replay: 300 }], ['vi-gh', { replay: 0 }], ['vi-per', {}], ['vi-per', { replay: 300 }], ['vi-per', { replay: 0 }],
  ['vi-per-mf', {}], ['vi-per-mf', { replay: 300 }], ['vi-per-mf', { replay: 0 }], ['pg-logit', {}], ['pg-logit', { replay: 300 }], ['pg-logit', { replay: 0 }],
  ['vb-logit', {}], ['vb-logit', { replay: 300 }], ['vb-logit', { replay: 0 }], ['adf-logit', {}], ['adf-logit', { window: 0 }], ['vb-logit-online', {}],
];

function gaussianOf(model: OnlineModel): { mean: Float64Array; covariance: Float64Array } {
  const mean = model.posteriorMean();
  if (model instanceof ViPerModel || model instanceof PgLogitModel) return { mean, covariance: model.covariance() };
  if (model instanceof VbLogitModel || model instanceof VbLogitOnlineModel || model instanceof AdfModel) return { mean, covariance: model.posterior.V.slice() };
  throw new Error(`no Gaussian posterior for ${model.family}`);
}

function fed(id: string, options: object, d: number, x: Float64Array, y: Float64Array, n: number, size: number): OnlineModel {
  const model = createModel(id as 'vi-gh', d, options);
  for (let start = 0; start < n; start += size) {
    const m = Math.min(size, n - start);
    model.update({ x: x.subarray(start * d, (start + m) * d), y: y.subarray(start, start + m), n: m, d });
  }
  return model;
}

{
  const [n, d, batches] = [5_000, 10, 10];
  const { x, y } = syntheticLogistic(n, d, 7 + d);
  const yardstick = gaussianOf(fed('vi-gh', {}, d, x, y, n, n));
  process.stdout.write(`family table: defaults, n = ${n.toLocaleString('en-US')}, p = ${d}, ${batches} minibatches; KL(one-batch vi-gh ‖ streamed q), coverage of q's 90% intervals of xᵀβ under one-batch vi-gh (first 1,000 rows), records per CPU-second of the streamed updates\n`);
  process.stdout.write('  family             KL to vi-gh   90% coverage   records/s\n');
  for (const id of ['adf-logit', 'vb-logit-online', 'vi-gh', 'vi-per', 'vi-per-mf', 'vi-mc', 'vb-logit', 'pg-logit']) {
    fed(id, {}, d, x, y, n, n / batches);
    const start = process.cpuUsage();
    const streamed = gaussianOf(fed(id, {}, d, x, y, n, n / batches));
    const used = process.cpuUsage(start);
    const rate = n / ((used.user + used.system) / 1e6);
    const kl = gaussianKl(yardstick.mean, yardstick.covariance, streamed.mean, streamed.covariance, d);
    process.stdout.write(`  ${id.padEnd(17)} ${kl.toExponential(2).padStart(12)} ${scoreCoverage(yardstick, streamed, x, d, 1000, 0.9).toFixed(3).padStart(14)} ${Math.round(rate).toLocaleString('en-US').padStart(11)}\n`);
  }
  if (process.argv[2] === 'table') process.exit(0);
}

const label = (id: string, options: { replay?: number; window?: number }): string => [id, ...Object.entries(options).map(([key, value]) => `${key} ${value}`)].join(' ');

for (const [n, d] of [[1_000, 5], [1_000, 10], [5_000, 10]] as const) {
  const { x, y } = syntheticLogistic(n, d, 7 + d);
  const yardstick = gaussianOf(fed('vi-gh', {}, d, x, y, n, n));
  process.stdout.write(`n = ${n.toLocaleString('en-US')}, p = ${d}: KL(one-batch vi-gh ‖ q), and KL(the family's own one-batch q ‖ streamed q)\n`);
  process.stdout.write('  family                  one batch   10 minibatches       ratio   own one batch ‖ streamed\n');
  for (const [id, options] of FAMILIES) {
    const [one, streamed] = [1, 10].map((batches) => gaussianOf(fed(id, options, d, x, y, n, Math.ceil(n / batches))));
    const kl = (p: typeof one, q: typeof one): number => gaussianKl(p.mean, p.covariance, q.mean, q.covariance, d);
    const [klOne, klStreamed] = [kl(yardstick, one), kl(yardstick, streamed)];
    const ratio = klOne < 1e-9 ? (klStreamed < 1e-9 ? '(yardstick)' : '—') : (klStreamed / klOne).toFixed(1);
    process.stdout.write(`  ${label(id, options).padEnd(22)} ${klOne.toExponential(2).padStart(10)} ${klStreamed.toExponential(2).padStart(16)} ${ratio.padStart(11)} ${kl(one, streamed).toExponential(2).padStart(26)}\n`);
  }
}

{
  const [n, d] = [20_000, 10];
  const { x, y } = syntheticLogistic(n, d, 7 + d);
  const yardstick = gaussianOf(fed('vi-gh', {}, d, x, y, n, n));
  process.stdout.write(`beyond the replay: n = ${n.toLocaleString('en-US')}, p = ${d}, 10 minibatches of 2,000\n  family                  one batch   10 minibatches       ratio   own one batch ‖ streamed\n`);
  for (const [id, options] of [['pg-logit', {}], ['pg-logit', { replay: 0 }], ['vb-logit', {}], ['vb-logit', { replay: 0 }]] as const) {
    const [one, streamed] = [1, 10].map((batches) => gaussianOf(fed(id, options, d, x, y, n, n / batches)));
    const kl = (p: typeof one, q: typeof one): number => gaussianKl(p.mean, p.covariance, q.mean, q.covariance, d);
    process.stdout.write(`  ${label(id, options).padEnd(22)} ${kl(yardstick, one).toExponential(2).padStart(10)} ${kl(yardstick, streamed).toExponential(2).padStart(16)} ${(kl(yardstick, streamed) / kl(yardstick, one)).toFixed(1).padStart(11)} ${kl(one, streamed).toExponential(2).padStart(26)}\n`);
  }
}

const costN = 10_000;
for (const d of [5, 10]) {
  const { x, y } = syntheticLogistic(costN, d, 3 + d);
  process.stdout.write(`cost: n = ${costN.toLocaleString('en-US')}, p = ${d}, updates of 100 records: records/s\n`);
  for (const id of ['vi-gh', 'vi-per', 'vi-per-mf', 'pg-logit', 'vb-logit']) {
    const row = [0, 300, 2000].map((replay) => {
      const start = performance.now();
      fed(id, { replay }, d, x, y, costN, 100);
      return `replay ${replay}: ${Math.round(costN / ((performance.now() - start) / 1000)).toLocaleString('en-US')}`;
    });
    process.stdout.write(`  ${id.padEnd(9)} ${row.join('   ')}\n`);
  }
}
