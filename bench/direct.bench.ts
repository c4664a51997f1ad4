import { RandomFourierFeatures } from '../src/features/random-fourier-features.js';
import { DirectModel } from '../src/models/direct/model.js';
import { DirectElbo } from '../src/models/direct/objective.js';
import { VbLinearModel } from '../src/models/vb-linear/model.js';
import { Rng } from '../src/rng/rng.js';
import { formatCount, medianMs, throughput } from './measure.js';

function gaussianRows(n: number, d: number, seed: number) {
  const rng = Rng.fromSeed(seed);
  const w = Float64Array.from({ length: d }, () => (rng.nextDouble() < 0.5 ? 0 : rng.normal()));
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let j = 0; j < d; j++) { const v = rng.normal(); x[r * d + j] = v; s += w[j] * v; }
    y[r] = s + 0.5 * rng.normal();
  }
  return { x, y, n, d };
}

const out = (line: string) => process.stdout.write(`${line}\n`);

out('direct: accumulation of ΦᵀΦ, Φᵀy, yᵀy (records/s, batches of 1,000, one core)');
for (const [b, target] of [[10, 5_000_000], [100, 0]] as const) {
  const data = gaussianRows(20_000, b, b);
  const model = DirectModel.create(b, { supportSize: 3 });
  let cursor = 0;
  const rate = throughput(() => {
    if (cursor + 1000 > data.n) cursor = 0;
    model.update({ x: data.x.subarray(cursor * b, (cursor + 1000) * b), y: data.y.subarray(cursor, cursor + 1000), n: 1000, d: b });
    cursor += 1000;
    return 1000;
  }, 1000);
  out(`  b = ${String(b).padStart(4)}: ${formatCount(rate).padStart(12)} records/s${target > 0 ? `   (target ≥ ${formatCount(target)})` : ''}`);
}

out('\ndirect: fit time is independent of n (b = 50, m̄ = 15, fits from the prior)');
for (const n of [10_000, 1_000_000]) {
  const model = DirectModel.create(50, { noiseSupport: [0.05, 0.1, 0.2, 0.25, 0.3, 0.5, 1] });
  const rng = Rng.fromSeed(5);
  const w = Float64Array.from({ length: 50 }, () => (rng.nextDouble() < 0.5 ? 0 : Math.round(2 * rng.normal()) / 2));
  const block = 10_000;
  const x = new Float64Array(block * 50);
  const y = new Float64Array(block);
  for (let done = 0; done < n; done += block) {
    for (let r = 0; r < block; r++) {
      let s = 0;
      for (let j = 0; j < 50; j++) { const v = rng.normal(); x[r * 50 + j] = v; s += w[j] * v; }
      y[r] = s + 0.5 * rng.normal();
    }
    model.update({ x, y, n: block, d: 50 });
  }
  const snapshot = model.snapshot();
  const fitMs = medianMs(() => DirectModel.restore(snapshot).posterior(), 3);
  const p = DirectModel.restore(snapshot).posterior();
  const s = snapshot.arrays;
  const elbo = new DirectElbo(model.grid, { b: 50, gram: s.gram, phiTy: s.phiTy, yty: s.scalars[0], n: s.scalars[1], records: s.scalars[2], complete: true });
  const g = new Float64Array(elbo.size);
  const evalUs = 1000 * medianMs(() => { for (let i = 0; i < 1000; i++) elbo.evaluate(p.logits, g); }, 3) / 1000;
  out(`  n = ${formatCount(n).padStart(9)}: fit ${fitMs.toFixed(1).padStart(7)} ms (${p.iterations} L-BFGS iterations), ELBO + gradient ${evalUs.toFixed(2)} µs per evaluation`);
}

out('\ndirect: one fit at b = 2,000, m̄ = 15 (statistics of 1,000 RFF rows; target ≤ 10 s)');
{
  const rng = Rng.fromSeed(11);
  const map = RandomFourierFeatures.sample(3, 1000, 1, rng);
  const n = 1000;
  const x = new Float64Array(n * 3);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    for (let d = 0; d < 3; d++) x[r * 3 + d] = rng.normal();
    y[r] = Math.sin(2 * x[r * 3]) + 0.5 * x[r * 3 + 1] * x[r * 3 + 2] + 0.1 * rng.normal();
  }
  const model = DirectModel.create(3, { features: { type: 'rff', count: 1000, lengthscale: 1, seed: 11 }, sigmaW: 1 });
  const start = performance.now();
  model.update({ x, y, n, d: 3 });
  const accumulated = performance.now() - start;
  const fitStart = performance.now();
  const p = model.posterior();
  const fitMs = performance.now() - fitStart;
  out(`  accumulation ${accumulated.toFixed(0)} ms; fit ${(fitMs / 1000).toFixed(2)} s, ${p.iterations} L-BFGS iterations (converged: ${p.converged}), ELBO ${p.elbo.toFixed(2)}, sparsity ${(100 * p.sparsity).toFixed(1)}%`);
}

out('\ndirect vs vb-linear on the same RFF features (y = sin(3x₁) + ½cos(2x₂) + N(0, 0.1²); 2,000 train, 1,000 test, b = 100)');
{
  const rng = Rng.fromSeed(21);
  const make = (n: number) => {
    const x = new Float64Array(n * 2);
    const y = new Float64Array(n);
    for (let r = 0; r < n; r++) {
      x[r * 2] = 2 * rng.nextDouble() - 1; x[r * 2 + 1] = 2 * rng.nextDouble() - 1;
      y[r] = Math.sin(3 * x[r * 2]) + 0.5 * Math.cos(2 * x[r * 2 + 1]) + 0.1 * rng.normal();
    }
    return { x, y, n, d: 2 };
  };
  const train = make(2000);
  const test = make(1000);
  const direct = DirectModel.create(2, { features: { type: 'rff', count: 50, lengthscale: 0.7, seed: 3 }, sigmaW: 1, restarts: 3 });
  direct.update(train);
  const map = direct.featureMap!;
  const phi = (data: typeof train) => { const f = new Float64Array(data.n * 100); for (let r = 0; r < data.n; r++) map.map(data.x, r * 2, f, r * 100); return f; };
  const linear = VbLinearModel.create('vb-linear', 100, false);
  linear.update({ x: phi(train), y: train.y, n: train.n, d: 100 });
  const testPhi = phi(test);
  let seDirect = 0;
  let seLinear = 0;
  for (let r = 0; r < test.n; r++) {
    seDirect += (direct.predict(test.x, r * 2).mean - test.y[r]) ** 2;
    seLinear += (linear.predict(testPhi, r * 100).mean - test.y[r]) ** 2;
  }
  const p = direct.posterior();
  out(`  RMSE direct ${Math.sqrt(seDirect / test.n).toFixed(4)}, vb-linear ${Math.sqrt(seLinear / test.n).toFixed(4)}; direct expected sparsity ${(100 * p.sparsity).toFixed(1)}% (ELBO ${p.elbo.toFixed(2)}, best of ${p.startElbos.length} starts)`);
}
