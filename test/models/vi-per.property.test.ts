import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { NumericalError } from '../../src/core/numerical-error.js';
import { resolveGaussianPrior } from '../../src/gaussian/resolve-gaussian-prior.js';
import { bernoulliLogit } from '../../src/likelihoods/bernoulli-logit.js';
import { GaussianLogitObjective, packedLength, type CovarianceForm, type ViPerModel } from '../../src/models/vi-per/index.js';
import { getFamily } from '../../src/registry.js';
import { Rng } from '../../src/rng/rng.js';
import { expectClose } from '../helpers/close.js';
import { gaussianKl } from '../../src/gaussian/gaussian-kl.js';
import { readReferenceCsv } from '../helpers/reference.js';

const fixture = readReferenceCsv('viper', 'logreg_n200_p3.csv');
const d = fixture.d;
const all = { x: fixture.x, y: fixture.y, n: fixture.n, d };
const rows = (from: number, to: number) => ({ x: fixture.x.subarray(from * d, to * d), y: fixture.y.subarray(from, to), n: to - from, d, firstRow: from + 1 });
const fit = (method: 'viper' | 'gauss-hermite' | 'jj', covariance: CovarianceForm) => {
  const model = getFamily('vi-per').create(d, { method, covariance });
  model.update(all);
  return model;
};

describe('the paper’s qualitative result on logreg_n200_p3 (JJ/PG q = the JJ bound optimised by the same L-BFGS, i.e. the JJ EM/CAVI fixed point)', () => {
  it.each(['full', 'diagonal'] as const)('%s: VI-PER is far closer (KL) to the exact-ELBO optimum than JJ/PG, and JJ/PG under-estimates the sds', (covariance) => {
    const exact = fit('gauss-hermite', covariance);
    const viper = fit('viper', covariance);
    const jj = fit('jj', covariance);
    const kl = (m: ViPerModel) => gaussianKl(exact.posteriorMean(), exact.covariance(), m.posteriorMean(), m.covariance(), d);
    expect(kl(viper)).toBeLessThan(1e-3);
    expect(kl(jj)).toBeGreaterThan(0.1);
    expect(kl(viper)).toBeLessThan(kl(jj) / 100);
    const sd = (m: ViPerModel, j: number) => Math.sqrt(m.covariance()[j * d + j]);
    for (let j = 0; j < d; j++) {
      expect(sd(viper, j)).toBeGreaterThan(sd(jj, j) * 1.15);
      expect(Math.abs(sd(viper, j) / sd(exact, j) - 1)).toBeLessThan(0.01);
    }
  });
});

describe('F_l gradient against central differences', () => {
  it.each(['full', 'diagonal'] as const)('%s: ∂F/∂μ and ∂F/∂L (packed, log-diagonal) at random q', (form) => {
    const prior = resolveGaussianPrior(d, { mean: [0.1, -0.2, 0.3], covariance: Float64Array.of(2, 0.3, 0, 0.3, 1, -0.2, 0, -0.2, 1.5) }, 1);
    const objective = new GaussianLogitObjective(d, form, bernoulliLogit('viper'));
    fc.assert(fc.property(fc.array(fc.double({ min: -1.5, max: 1.5, noNaN: true }), { minLength: packedLength(d, form), maxLength: packedLength(d, form) }), (values) => {
      const params = Float64Array.from(values);
      const gradient = new Float64Array(params.length);
      const scratch = new Float64Array(params.length);
      objective.evaluate(params, gradient, fixture.x, fixture.y, 40, undefined, 1, prior);
      for (let i = 0; i < params.length; i++) {
        const h = 1e-6;
        const plus = params.slice(); plus[i] += h;
        const minus = params.slice(); minus[i] -= h;
        const fd = (objective.evaluate(plus, scratch, fixture.x, fixture.y, 40, undefined, 1, prior) - objective.evaluate(minus, scratch, fixture.x, fixture.y, 40, undefined, 1, prior)) / (2 * h);
        expect(Math.abs(gradient[i] - fd), `parameter ${i}`).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(fd)));
      }
    }), { numRuns: 15 });
  });
});

describe('vi-per contract', () => {
  it.each([['vi-per', { streaming: 'svi', stepsPerBatch: 3, dataSize: 200 }], ['vi-mc', { streaming: 'svi', samples: 30 }]] as const)(
    '%s %j: the SVI state (Adam moments, generator) survives snapshot → bytes → restore, resuming identically', (id, options) => {
      const family = getFamily(id);
      const model = family.create(d, options);
      model.update(rows(0, 60));
      const restored = family.restore(decodeSnapshot(encodeSnapshot(model.snapshot())).snapshot);
      expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(model.snapshot()));
      model.update(rows(60, 120));
      restored.update(rows(60, 120));
      expect(Array.from(restored.posteriorMean())).toEqual(Array.from(model.posteriorMean()));
      expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(model.snapshot()));
    });

  it('vi-mc svi: a step that turns non-finite puts the Adam moments and the generator back, so the model goes on as if it never saw that batch', () => {
    const options = { streaming: 'svi', samples: 30, stepsPerBatch: 2 } as const;
    const model = getFamily('vi-mc').create(d, options, { maxAbsInput: Number.MAX_VALUE }); // 1e200 reaches the step (not refused as input)
    const twin = getFamily('vi-mc').create(d, options);
    model.update(rows(0, 40));
    twin.update(rows(0, 40));
    const huge = rows(40, 60);
    const x = huge.x.slice();
    x[4] = 1e200;
    expect(() => model.update({ ...huge, x })).toThrow(NumericalError);
    model.update(rows(60, 100));
    twin.update(rows(60, 100));
    expect(encodeSnapshot(model.snapshot())).toEqual(encodeSnapshot(twin.snapshot()));
  });

  it('option values are validated (bad l, bad prior); a full prior covariance is taken as given', () => {
    expect(() => getFamily('vi-per').create(d, { l: 0 })).toThrow(/field l/);
    expect(() => getFamily('vi-per').create(d, { prior: { covariance: [1, 2] } })).toThrow(/prior.covariance/);
    expect(() => getFamily('vi-per').create(d, { prior: { covariance: [[1, 2, 0], [2, 1, 0], [0, 0, 1]] } })).toThrow(/positive definite/);
    const full = getFamily('vi-per').create(d, { prior: { mean: [0, 1, 0], covariance: [[1, 0.5, 0], [0.5, 1, 0], [0, 0, 1]] } });
    expectClose(full.covariance(), [1, 0.5, 0, 0.5, 1, 0, 0, 0, 1], { abs: 1e-15 });
  });

  it('streaming: sda over two halves and SVI over minibatches land near the batch VI-PER fit', () => {
    const batch = fit('viper', 'full');
    const sda = getFamily('vi-per').create(d);
    sda.update(rows(0, 100));
    sda.update(rows(100, 200));
    expectClose(sda.posteriorMean(), batch.posteriorMean(), { abs: 0.05 }, 'sda μ');
    const svi = getFamily('vi-per').create(d, { streaming: 'svi', dataSize: 200, learningRate: 0.02 });
    for (let epoch = 0; epoch < 40; epoch++) for (let b = 0; b < 200; b += 20) svi.update(rows(b, b + 20));
    expectClose(svi.posteriorMean(), batch.posteriorMean(), { abs: 0.1 }, 'svi μ');
    expect(svi.recordsSeen).toBe(8000);
  });

  it('predict is E[σ(xᵀβ)] and sample draws from N(μ, Σ)', () => {
    const model = fit('viper', 'full');
    const x = Float64Array.of(0.5, -1, 0.8);
    const rng = Rng.fromSeed(4);
    const draw = new Float64Array(d);
    let p = 0;
    const mean = new Float64Array(d);
    const draws = 20000;
    for (let s = 0; s < draws; s++) {
      model.sample(rng, draw);
      p += 1 / (1 + Math.exp(-(draw[0] * x[0] + draw[1] * x[1] + draw[2] * x[2])));
      for (let j = 0; j < d; j++) mean[j] += draw[j] / draws;
    }
    expect(Math.abs(model.predict(x).prob - p / draws)).toBeLessThan(0.005);
    expectClose(mean, model.posteriorMean(), { abs: 0.01 }, 'sample mean');
  });
});
