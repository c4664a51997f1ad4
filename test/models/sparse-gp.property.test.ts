import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { gpExactFamily } from '../../src/models/gp-exact/index.js';
import { sparseGpClassifierFamily, sparseGpCountFamily, sparseGpFamily } from '../../src/models/sparse-gp/index.js';
import { getFamily } from '../../src/registry.js';
import { Rng } from '../../src/rng/rng.js';

function stream(n: number, d: number, seed: number, label: (f: number, rng: Rng) => number) {
  const rng = Rng.fromSeed(seed);
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let f = 0;
    for (let j = 0; j < d; j++) { x[i * d + j] = 2 * rng.normal(); f += Math.sin(x[i * d + j]); }
    y[i] = label(f, rng);
  }
  return { x, y, n, d };
}
const regression = (n: number, d: number, seed: number) => stream(n, d, seed, (f, rng) => f + 0.2 * rng.normal());
const binary = (n: number, d: number, seed: number) => stream(n, d, seed, (f, rng) => (rng.nextDouble() < 1 / (1 + Math.exp(-3 * f)) ? 1 : 0));
const counts = (n: number, d: number, seed: number) => stream(n, d, seed, (f, rng) => {
  let k = 0; let p = Math.exp(-Math.exp(f)); let u = rng.nextDouble();
  while (u > p) { u -= p; k += 1; p *= Math.exp(f) / k; }
  return k;
});
type Data = ReturnType<typeof regression>;
const slice = (data: Data, from: number, to: number) => ({ x: data.x.subarray(from * data.d, to * data.d), y: data.y.subarray(from, to), n: to - from, d: data.d, firstRow: from + 1 });

describe('sparse GP families', () => {
  const variants = [
    ['sparse-gp elbo', sparseGpFamily, { M: 8 }, regression],
    ['sparse-gp dlm unwhitened ARD', sparseGpFamily, { M: 8, objective: 'dlm', whitened: false, kernel: { type: 'rbf-ard' }, mean: 'constant' }, regression],
    ['sparse-gp sq-dlm', sparseGpFamily, { M: 8, objective: 'sq-dlm', beta: 0.5 }, regression],
    ['classifier probit dlm', sparseGpClassifierFamily, { M: 8, objective: 'dlm' }, binary],
    ['classifier logit elbo (VI-PER)', sparseGpClassifierFamily, { M: 8, likelihood: 'bernoulli-logit' }, binary],
    ['classifier logit dlm uPS', sparseGpClassifierFamily, { M: 8, likelihood: 'bernoulli-logit', objective: 'dlm', estimator: 'ups', samples: 2 }, binary],
    ['classifier logit dlm bMC', sparseGpClassifierFamily, { M: 8, likelihood: 'bernoulli-logit', objective: 'dlm', estimator: 'bmc', samples: 3 }, binary],
    ['count poisson dlm bMC', sparseGpCountFamily, { M: 8, objective: 'dlm', estimator: 'bmc', samples: 4 }, counts],
    ['count poisson dlm uPS', sparseGpCountFamily, { M: 8, objective: 'dlm', estimator: 'ups', samples: 2 }, counts],
  ] as const;

  it.each(variants)('%s: snapshot → bytes → restore is bit-exact and continues identically', (_, family, options, make) => {
    const data = make(120, 2, 3);
    const model = family.create(2, { ...options, stepsPerUpdate: 3, learningRate: 0.05 } as never);
    model.update(slice(data, 0, 40));
    model.update(slice(data, 40, 80));
    const restored = family.restore(decodeSnapshot(encodeSnapshot(model.snapshot())).snapshot);
    expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(model.snapshot()));
    model.update(slice(data, 80, 120));
    restored.update(slice(data, 80, 120));
    expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(model.snapshot()));
    expect(restored.recordsSeen).toBe(120);
    const p = restored.predict(Float64Array.of(0.3, -0.2));
    expect(Number.isFinite(p.mean) && p.variance > 0).toBe(true);
  });

  it('refuses bad option values with typed errors', () => {
    expect(() => sparseGpFamily.create(2, { M: 0 })).toThrow(ConfigError);
    expect(() => sparseGpFamily.create(2, { likelihood: 'poisson' } as never)).toThrow(/likelihood/);
    expect(() => sparseGpFamily.create(2, { kernel: { type: 'rbf-ard', lengthscale: [1, 2, 3] } })).toThrow(/lengthscale/);
    expect(() => sparseGpFamily.create(1, { M: 2, Z: [[0], [1], [2]] })).toThrow(/Z/);
    expect(() => sparseGpFamily.create(1, { fixed: ['everything'] } as never)).toThrow(/fixed/);
    expect(() => sparseGpFamily.create(1, { objective: 'sq-dlm', likelihood: 'gaussian', estimator: 'bmc' })).toThrow(/estimator/);
    expect(() => sparseGpClassifierFamily.create(1, { objective: 'sq-dlm' })).toThrow(/square-loss DLM is for regression/);
  });

  it('never produces NaN on finite input (fast-check), including extreme labels', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.double({ min: -1e3, max: 1e3, noNaN: true })), { minLength: 1, maxLength: 25 }),
      fc.constantFrom('elbo', 'dlm', 'sq-dlm'),
      (rows, objective) => {
        const model = sparseGpFamily.create(1, { M: 4, objective: objective as 'elbo', stepsPerUpdate: 2 });
        try {
          model.update({ x: Float64Array.from(rows.map((r) => r[0])), y: Float64Array.from(rows.map((r) => r[1])), n: rows.length, d: 1 });
        } catch (error) {
          expect((error as Error).name).toMatch(/NumericalError|InputError/);
          return;
        }
        const p = model.predict(Float64Array.of(rows[0][0]));
        expect(Number.isFinite(p.mean) && Number.isFinite(p.variance)).toBe(true);
        for (const v of model.posteriorMean()) expect(Number.isFinite(v)).toBe(true);
      }), { numRuns: 40 });
  });

  it('streaming: minibatch updates learn a regression function (test MSE far below the label variance)', () => {
    const data = regression(2000, 1, 5);
    const model = sparseGpFamily.create(1, { M: 15, learningRate: 0.05, dataSize: 2000 });
    for (let epoch = 0; epoch < 3; epoch++) for (let i = 0; i < 2000; i += 100) model.update(slice(data, i, i + 100));
    const testData = regression(200, 1, 6);
    let mse = 0;
    let variance = 0;
    const mean = testData.y.reduce((a, b) => a + b, 0) / 200;
    for (let i = 0; i < 200; i++) {
      mse += (model.predict(testData.x, i).mean - testData.y[i]) ** 2;
      variance += (testData.y[i] - mean) ** 2;
    }
    expect(mse / variance).toBeLessThan(0.2);
    expect(model.summary().effectiveDataSize).toBe(2000);
  });

  it('sample(rng) draws u ~ q(u) and sampleLatent draws f jointly, with the right moments', () => {
    const data = regression(200, 1, 7);
    const model = sparseGpFamily.create(1, { M: 6, stepsPerUpdate: 50, learningRate: 0.05 });
    model.update(data);
    const rng = Rng.fromSeed(9);
    const xs = Float64Array.of(-1, 0.5);
    const latent = model.predictLatent(xs, 2);
    const draws = Array.from({ length: 4000 }, () => model.sampleLatent(rng, xs, 2));
    for (let k = 0; k < 2; k++) {
      const m = draws.reduce((a, d) => a + d[k], 0) / draws.length;
      const v = draws.reduce((a, d) => a + (d[k] - m) ** 2, 0) / draws.length;
      expect(Math.abs(m - latent.mean[k])).toBeLessThan(4 * Math.sqrt(latent.variance[k] / draws.length) + 1e-9);
      expect(Math.abs(v / latent.variance[k] - 1)).toBeLessThan(0.1);
    }
    expect(model.sample(rng).length).toBe(6);
  });

  it('Z comes from the first batch: its first M rows with zInit "first", distinct rows by k-means++ otherwise', () => {
    const data = regression(50, 2, 10);
    const first = sparseGpFamily.create(2, { M: 5, zInit: 'first', fixed: ['Z'] });
    first.update({ ...slice(data, 0, 50) });
    expect(Array.from(first.hyperparameters().Z)).toEqual(Array.from(data.x.subarray(0, 10)));
    const seeded = sparseGpFamily.create(2, { M: 5, fixed: ['Z'] });
    seeded.update({ ...slice(data, 0, 50) });
    const Z = seeded.hyperparameters().Z;
    const rows = new Set(Array.from({ length: 5 }, (_, a) => `${Z[2 * a]},${Z[2 * a + 1]}`));
    expect(rows.size).toBe(5);
    for (const row of rows) expect(Array.from({ length: 50 }, (_, i) => `${data.x[2 * i]},${data.x[2 * i + 1]}`)).toContain(row);
  });

  it('every CLI family id is in the registry with its task', () => {
    expect(getFamily('sparse-gp').task).toBe('regression');
    expect(getFamily('sparse-gp-classifier').task).toBe('classification');
    expect(getFamily('sparse-gp-count').task).toBe('count');
    expect(getFamily('gp-exact').task).toBe('regression');
  });
});

describe('gp-exact', () => {
  it('snapshot → restore is bit-exact, and fixed hyperparameters stay fixed', () => {
    const data = regression(60, 2, 8);
    const model = gpExactFamily.create(2, { kernel: { variance: 2, lengthscale: 0.7 }, noiseVariance: 0.05, fixed: ['kernel', 'noise'] });
    model.update(slice(data, 0, 40));
    const restored = gpExactFamily.restore(decodeSnapshot(encodeSnapshot(model.snapshot())).snapshot);
    model.update(slice(data, 40, 60));
    restored.update(slice(data, 40, 60));
    expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(model.snapshot()));
    expect(Array.from(model.posteriorMean())).toEqual([Math.log(2), Math.log(0.7), Math.log(0.05)]);
    expect(restored.predict(Float64Array.of(0, 0)).mean).toBe(model.predict(Float64Array.of(0, 0)).mean);
  });

  it('restores a layout-1 snapshot (no starting hyperparameters): the same model, and emptyLike starts from its hyperparameters', () => {
    const data = regression(30, 2, 9);
    const model = gpExactFamily.create(2, { kernel: { type: 'rbf-ard', lengthscale: [0.5, 2] }, noiseVariance: 0.1, maxIterations: 10 });
    model.update(slice(data, 0, 30));
    const current = model.snapshot();
    const { initial, ...header } = current.header;
    expect(initial).toEqual({ variance: 1, lengthscale: [0.5, 2], noiseVariance: 0.1 });
    const restored = gpExactFamily.restore({ ...current, version: 1, header });
    expect(restored.snapshot().arrays).toEqual(current.arrays);
    expect(restored.predict(Float64Array.of(0.3, -1)).mean).toBe(model.predict(Float64Array.of(0.3, -1)).mean);
    const h = model.hyperparameters();
    const empty = restored.emptyLike().snapshot();
    expect(empty.header.initial).toEqual({ variance: Math.exp(current.arrays.params[0]), lengthscale: [Math.exp(current.arrays.params[1]), Math.exp(current.arrays.params[2])], noiseVariance: Math.exp(current.arrays.params[3]) });
    expect(Math.abs((empty.header.initial as { noiseVariance: number }).noiseVariance / h.noiseVariance - 1)).toBeLessThan(1e-12);
    expect(empty.header.records).toBe(0);
  });
});
