import { gaussianKl } from '../src/gaussian/gaussian-kl.js';
import { adfLogitFamily, adfPoissonFamily, adfProbitFamily } from '../src/models/adf/family.js';
import { vbLogitOnlineFamily } from '../src/models/vb-logit/online-family.js';
import { viGaussHermiteFamily } from '../src/models/vi-per/family.js';
import { Rng } from '../src/rng/rng.js';
import { formatCount, throughputWallAndCpu } from './measure.js';
import { syntheticLogistic } from './synthetic-logistic.js';
import { syntheticPoisson } from './synthetic-poisson.js';

type OnlineLogistic = { update(batch: { x: Float64Array; y: Float64Array; n: number; d: number }): unknown; readonly posterior: { readonly w: Float64Array; readonly V: Float64Array } };

const learners: { readonly name: string; create(d: number): OnlineLogistic }[] = [
  { name: 'adf-logit', create: (d) => adfLogitFamily.create(d) },
  { name: 'adf-logit window 0', create: (d) => adfLogitFamily.create(d, { window: 0 }) },
  { name: 'adf-probit', create: (d) => adfProbitFamily.create(d) },
  { name: 'vb-logit-online', create: (d) => vbLogitOnlineFamily.create(d, { priorPrecision: 1 }) },
];

process.stdout.write('ADF vs vb-logit-online: updates/s on one core from pre-parsed Float64Arrays (prior N(0, I); adf-logit with its default site window 2000, 1 revisit per record; targets ≥ 200,000/s at p = 10, ≥ 50,000/s at p = 25)\n');
process.stdout.write('    p   records per update   model                 records/s (wall)   (CPU time)\n');
for (const [d, block] of [[10, 1000], [25, 1000], [10, 1], [25, 1]]) {
  const n = 200_000;
  const data = syntheticLogistic(n, d, 42 + d);
  for (const learner of learners) {
    let model = learner.create(d);
    let cursor = 0;
    const { wall, cpu } = throughputWallAndCpu(() => {
      if (cursor + block > n) { model = learner.create(d); cursor = 0; }
      model.update({ x: data.x.subarray(cursor * d, (cursor + block) * d), y: data.y.subarray(cursor, cursor + block), n: block, d });
      cursor += block;
      return block;
    }, 1500);
    process.stdout.write(`${String(d).padStart(5)}   ${String(block).padStart(18)}   ${learner.name.padEnd(19)} ${formatCount(wall).padStart(18)} ${formatCount(cpu).padStart(12)}\n`);
  }
}

process.stdout.write('\nKL(vi-gh ‖ one pass), vi-gh fitted on all n records in one batch, prior N(0, I) for every model (target for the per-record learner ≤ 0.05)\n');
process.stdout.write('     n    p   adf-logit   adf-logit window 0   vb-logit-online\n');
for (const n of [1000, 5000]) {
  for (const d of [10, 25]) {
    const data = syntheticLogistic(n, d, 7 + n + d);
    const batch = { x: data.x, y: data.y, n, d };
    const reference = viGaussHermiteFamily.create(d);
    reference.update(batch);
    const mean = reference.posteriorMean();
    const covariance = reference.covariance();
    const kl = [adfLogitFamily.create(d), adfLogitFamily.create(d, { window: 0 }), vbLogitOnlineFamily.create(d, { priorPrecision: 1 })].map((model) => {
      model.update(batch);
      return gaussianKl(mean, covariance, model.posterior.w, model.posterior.V, d);
    });
    process.stdout.write(`${String(n).padStart(6)} ${String(d).padStart(4)} ${kl[0].toFixed(4).padStart(11)} ${kl[1].toFixed(4).padStart(20)} ${kl[2].toFixed(4).padStart(17)}\n`);
  }
}

process.stdout.write('\nadf-poisson (log link; tilted moments by the trapezoid rule around the tilted mode): records/s in batches of 1,000, and KL(EP ‖ q) with EP = the window holding every record, 20 revisits per record\n');
process.stdout.write('     n    p   records/s (default)   records/s (window 0)   KL default   KL window 0\n');
for (const [n, d] of [[2000, 10], [2000, 25]]) {
  const data = syntheticPoisson(n, d, 99 + d);
  const batch = { x: data.x, y: data.y, n, d };
  const rates = [{}, { window: 0 }].map((options) => {
    let model = adfPoissonFamily.create(d, options);
    let cursor = 0;
    return throughputWallAndCpu(() => {
      if (cursor + 1000 > n) { model = adfPoissonFamily.create(d, options); cursor = 0; }
      model.update({ x: data.x.subarray(cursor * d, (cursor + 1000) * d), y: data.y.subarray(cursor, cursor + 1000), n: 1000, d });
      cursor += 1000;
      return 1000;
    }, 1000).cpu;
  });
  const ep = adfPoissonFamily.create(d, { window: n, revisits: 20 });
  ep.update(batch);
  const kl = [{}, { window: 0 }].map((options) => {
    const model = adfPoissonFamily.create(d, options);
    model.update(batch);
    return gaussianKl(ep.posterior.w, ep.posterior.V, model.posterior.w, model.posterior.V, d);
  });
  process.stdout.write(`${String(n).padStart(6)} ${String(d).padStart(4)} ${formatCount(rates[0]).padStart(21)} ${formatCount(rates[1]).padStart(22)} ${kl[0].toExponential(2).padStart(12)} ${kl[1].toExponential(2).padStart(13)}\n`);
}
