import { directBnnFamily } from '../src/models/direct/bnn-family.js';
import { DirectBnnElbo } from '../src/models/direct/bnn-objective.js';
import { Rng } from '../src/rng/rng.js';
import { fitMeanFieldGaussianBnn } from './mean-field-gaussian-bnn.js';
import { cpuMs, formatCount } from './measure.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

/** y = ½(x₁ + x₂)² − 0.4(x₃ − ½x₄)² + 0.3 sin(2x₁) + N(0, 0.3²), x ~ N(0, I₄): mostly quadratic, not exactly. */
function teacher(n: number, rng: Rng): { x: Float64Array; y: Float64Array; n: number; d: number } {
  const d = 4;
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < d; i++) x[r * d + i] = rng.normal();
    const [x1, x2, x3, x4] = x.subarray(r * d, r * d + d);
    y[r] = 0.5 * (x1 + x2) ** 2 - 0.4 * (x3 - 0.5 * x4) ** 2 + 0.3 * Math.sin(2 * x1) + 0.3 * rng.normal();
  }
  return { x, y, n, d };
}

out('direct-bnn: accumulation of Σx̃⊗x̃⊗x̃⊗x̃ (C(d+4, 4) values) and Σy·x̃x̃ᵀ (records/s of CPU, batches of 1,000)');
for (const d of [4, 8, 16]) {
  const rng = Rng.fromSeed(1);
  const x = Float64Array.from({ length: 1000 * d }, () => rng.normal());
  const y = Float64Array.from({ length: 1000 }, () => rng.normal());
  const model = directBnnFamily.create(d, { hidden: 1 });
  const batches = d === 16 ? 5 : 50;
  const cpu = cpuMs(() => { for (let i = 0; i < batches; i++) model.update({ x, y, n: 1000, d }); });
  const D = d + 1;
  const terms = (D * (D + 1) * (D + 2) * (D + 3)) / 24;
  out(`  d = ${String(d).padStart(2)}: ${formatCount((batches * 1000) / (cpu / 1000)).padStart(10)} records/s; ${formatCount(terms)} fourth moments per record (${((cpu * 1e6) / (batches * 1000) / terms).toFixed(2)} ns each)`);
}

out('\ndirect-bnn: fit cost does not depend on n (d = 4, H = 4, m̄ = 15, 25 noise atoms). Same start, L-BFGS on the exact ELBO alone,');
out('capped at 100 iterations, restarts 1 (equal iteration counts = equal work); accumulation is the only O(n) part. CPU medians of 5.');
const perEvaluation: number[] = [];
const perIteration: number[] = [];
const medianCpuMs = (work: () => void, repeats: number): number => {
  work();
  const times = Array.from({ length: repeats }, () => cpuMs(work)).sort((a, b) => a - b);
  return times[Math.floor(repeats / 2)];
};
{
  const warm = directBnnFamily.create(4, { hidden: 4, maxIter: 100, temperatures: [] });
  warm.update(teacher(1000, Rng.fromSeed(3)));
  for (let i = 0; i < 5; i++) directBnnFamily.restore(warm.snapshot()).refit();
}
for (const n of [1_000, 10_000, 100_000, 1_000_000]) {
  const rng = Rng.fromSeed(7);
  const model = directBnnFamily.create(4, { hidden: 4, maxIter: 100, temperatures: [] });
  const block = Math.min(n, 10_000);
  let accumulate = 0;
  for (let done = 0; done < n; done += block) {
    const data = teacher(block, rng);
    accumulate += cpuMs(() => model.update(data));
  }
  const snapshot = model.snapshot();
  let iterations = 0;
  const fitMs = medianCpuMs(() => { iterations = directBnnFamily.restore(snapshot).refit().iterations; }, 5);
  const stats = { fourth: snapshot.arrays.fourth, crossY: snapshot.arrays.crossY, yty: snapshot.arrays.scalars[0], records: snapshot.arrays.scalars[1] };
  const elbo = new DirectBnnElbo(model.shape, model.grid, stats);
  const g = new Float64Array(elbo.size);
  const logits = snapshot.arrays.logits;
  const evalUs = medianCpuMs(() => { for (let i = 0; i < 1000; i++) elbo.evaluate(logits, g); }, 5);
  perEvaluation.push(evalUs);
  perIteration.push(fitMs / Math.max(1, iterations));
  out(`  n = ${formatCount(n).padStart(9)}: accumulation ${accumulate.toFixed(0).padStart(6)} ms CPU; fit ${iterations} iterations in ${fitMs.toFixed(1).padStart(6)} ms CPU; ELBO + gradient ${evalUs.toFixed(2)} µs CPU per evaluation`);
}
out(`  ratio n = 10⁶ / n = 10³: ${(perEvaluation[3] / perEvaluation[0]).toFixed(2)} per ELBO + gradient evaluation, ${(perIteration[3] / perIteration[0]).toFixed(2)} per L-BFGS iteration (target ≈ 1; shared machine)`);

out('\ndirect-bnn vs a mean-field Gaussian BNN (reparameterisation gradients, the paper\'s "REPARAM mean-field": minibatch 100,');
out('10 draws per step, Adam 0.01, σ² a point estimate, predictive mean from 1,000 draws) on the same quadratic network (H = 4).');
out('Teacher ½(x₁ + x₂)² − 0.4(x₃ − ½x₄)² + 0.3 sin(2x₁) + N(0, 0.3²), d = 4; 1,000 train and 1,000 test rows; 3 data seeds.');
{
  const rows: { [label: string]: { rmse: number[]; cpu: number[]; extra: string[] } } = {};
  const record = (label: string, rmse: number, cpu: number, extra = ''): void => {
    rows[label] ??= { rmse: [], cpu: [], extra: [] };
    rows[label].rmse.push(rmse);
    rows[label].cpu.push(cpu);
    rows[label].extra.push(extra);
  };
  for (const seed of [1, 2, 3]) {
    const rng = Rng.fromSeed(100 + seed);
    const train = teacher(1000, rng);
    const test = teacher(1000, rng);
    let mean = 0;
    for (let r = 0; r < train.n; r++) mean += train.y[r] / train.n;
    let se = 0;
    for (let r = 0; r < test.n; r++) se += (test.y[r] - mean) ** 2;
    record('constant (train mean)', Math.sqrt(se / test.n), 0);
    for (const [label, options] of [
      ['direct-bnn, L-BFGS alone (paper)', { hidden: 4, temperatures: [] }],
      ['direct-bnn, L-BFGS alone, 10 starts', { hidden: 4, temperatures: [], restarts: 10 }],
      ['direct-bnn (default: annealed)', { hidden: 4 }],
      ['direct-bnn, annealed, 10 starts', { hidden: 4, restarts: 10 }],
      ['direct-bnn, annealed, 10 starts, m̄ 31, σ_w ½', { hidden: 4, restarts: 10, supportSize: 31, sigmaW: 0.5 }],
    ] as const) {
      const model = directBnnFamily.create(4, options);
      let p = undefined as ReturnType<typeof model.posterior> | undefined;
      const cpu = cpuMs(() => { model.update(train); p = model.posterior(); });
      let e = 0;
      for (let r = 0; r < test.n; r++) e += (model.predict(test.x, r * 4).mean - test.y[r]) ** 2;
      record(label, Math.sqrt(e / test.n), cpu, `ELBO ${p!.elbo.toFixed(0)}, sparsity ${(100 * p!.sparsity).toFixed(0)}%`);
    }
    for (const iterations of [1000, 5000]) {
      let fit = undefined as ReturnType<typeof fitMeanFieldGaussianBnn> | undefined;
      const cpu = cpuMs(() => { fit = fitMeanFieldGaussianBnn(train.x, train.y, train.n, 4, { hidden: 4, iterations, batchSize: 100, samples: 10, learningRate: 0.01, seed }); });
      const draws = Rng.fromSeed(seed);
      let e = 0;
      for (let r = 0; r < test.n; r++) e += (fit!.predictMean(test.x, r * 4, 1000, draws) - test.y[r]) ** 2;
      record(`Gaussian MFVI, ${iterations} steps`, Math.sqrt(e / test.n), cpu, `σ² ${fit!.noise.toFixed(3)}`);
    }
  }
  for (const [label, row] of Object.entries(rows)) {
    const mean = row.rmse.reduce((a, v) => a + v, 0) / row.rmse.length;
    const sd = Math.sqrt(row.rmse.reduce((a, v) => a + (v - mean) ** 2, 0) / row.rmse.length);
    const cpu = row.cpu.reduce((a, v) => a + v, 0) / row.cpu.length;
    out(`  ${label.padEnd(46)} test RMSE ${mean.toFixed(3)} ± ${sd.toFixed(3)} (${row.rmse.map((v) => v.toFixed(3)).join(', ')})${cpu > 0 ? `; ${(cpu / 1000).toFixed(2)} s CPU` : ''}${row.extra[0] === '' ? '' : `; ${row.extra.join(' | ')}`}`);
  }
}
