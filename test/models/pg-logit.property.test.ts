import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { ConfigError } from '../../src/core/config-error.js';
import { pgLogitCavi } from '../../src/models/pg-logit/cavi.js';
import { expectedSigmoid } from '../../src/models/pg-logit/expected-sigmoid.js';
import { pgLogitFamily, type PgLogitModel } from '../../src/models/pg-logit/family.js';
import { MinibatchSampler } from '../../src/models/pg-logit/minibatch-sampler.js';
import { resolvePgLogitPrior } from '../../src/models/pg-logit/resolve-pg-logit-prior.js';
import { Rng } from '../../src/rng/rng.js';
import { normalCdf } from '../../src/special/normal-cdf.js';
import { sigmoid } from '../../src/special/sigmoid.js';
import { expectClose } from '../helpers/close.js';
import { gaussianKl } from '../../src/gaussian/gaussian-kl.js';

/** A seeded synthetic logistic dataset with an intercept column. */
function dataset(seed: number, n: number, d: number) {
  const rng = Rng.fromSeed(seed);
  const beta = Float64Array.from({ length: d }, () => 1.5 * rng.normal());
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let eta = 0;
    for (let j = 0; j < d; j++) {
      x[r * d + j] = j === 0 ? 1 : rng.normal();
      eta += beta[j] * x[r * d + j];
    }
    y[r] = rng.nextDouble() < sigmoid(eta) ? 1 : 0;
  }
  return { x, y, n, d };
}

const signed = (y: Float64Array) => y.map((v) => 2 * v - 1);
const bytes = (model: PgLogitModel) => encodeSnapshot(model.snapshot());
const caseArb = fc.record({ seed: fc.integer({ min: 1, max: 1e6 }), n: fc.integer({ min: 1, max: 60 }), d: fc.integer({ min: 1, max: 5 }), variance: fc.double({ min: 0.1, max: 100, noNaN: true }) });

describe('pg-logit properties', () => {
  it('CAVI never decreases the ELBO (beyond 1e-9·|ELBO|), and the returned ξ maximise it', () => {
    fc.assert(fc.property(caseArb, ({ seed, n, d, variance }) => {
      const data = dataset(seed, n, d);
      const prior = resolvePgLogitPrior(d, { mean: 0.3, covariance: variance });
      const fit = pgLogitCavi(prior, data.x, signed(data.y), n, d, { tol: 1e-13, relativeTol: true, maxIter: 500 });
      for (let t = 1; t < fit.elboTrace.length; t++) expect(fit.elboTrace[t] - fit.elboTrace[t - 1]).toBeGreaterThanOrEqual(-1e-9 * Math.abs(fit.elboTrace[t]));
      expect(fit.elboTrace.every(Number.isFinite)).toBe(true);
      expect(fit.mean.every(Number.isFinite)).toBe(true);
    }), { numRuns: 40 });
  });

  it('SVI with κ = 1, τ = 0, one random-order pass per epoch, approaches CAVI as the passes grow', () => {
    const data = dataset(11, 200, 3);
    const prior = resolvePgLogitPrior(3);
    const cavi = pgLogitCavi(prior, data.x, signed(data.y), data.n, data.d, { tol: 1e-14, relativeTol: true, maxIter: 1000 });
    const model = pgLogitFamily.create(3, { mode: 'svi', effectiveSize: data.n, tau: 0, kappa: 1 });
    const sampler = new MinibatchSampler(data.x, data.y, data.n, data.d, 1, 'permutation', Rng.fromSeed(3));
    const kls: number[] = [];
    let passes = 0;
    for (const target of [1, 4, 16, 64]) {
      for (; passes < target; passes++) for (let t = 0; t < data.n; t++) model.update(sampler.next());
      kls.push(gaussianKl(model.posteriorMean(), model.covariance(), cavi.mean, cavi.cov, 3));
    }
    for (let k = 1; k < kls.length; k++) expect(kls[k]).toBeLessThan(kls[k - 1]);
    expect(kls[kls.length - 1]).toBeLessThan(kls[0] / 8);
  });

  it('forget(γ) is γλ + (1 − γ)λ₀', () => {
    fc.assert(fc.property(caseArb, fc.double({ min: 0.01, max: 1, noNaN: true }), ({ seed, n, d }, gamma) => {
      const data = dataset(seed, n, d);
      const model = pgLogitFamily.create(d);
      model.update(data);
      const natural = model.naturalParameters();
      model.forget(gamma);
      const prior = resolvePgLogitPrior(d);
      const after = model.naturalParameters();
      expectClose(after.lambda1, natural.lambda1.map((v, i) => gamma * v + (1 - gamma) * prior.shift[i]), { abs: 1e-12, rel: 1e-12 }, 'lambda1');
      expectClose(after.lambda2, natural.lambda2.map((v, i) => gamma * v - 0.5 * (1 - gamma) * prior.precision[i]), { abs: 1e-12, rel: 1e-12 }, 'lambda2');
      expect(model.recordsSeen).toBeCloseTo(gamma * n, 10);
    }), { numRuns: 30 });
  });

  it('an svi snapshot (step count, N) restores bit for bit and the restored model continues identically', () => {
    fc.assert(fc.property(caseArb, ({ seed, n, d }) => {
      const data = dataset(seed, 2 * n, d);
      const first = { x: data.x.subarray(0, n * d), y: data.y.subarray(0, n), n, d };
      const second = { x: data.x.subarray(n * d), y: data.y.subarray(n), n, d };
      const model = pgLogitFamily.create(d, { mode: 'svi', effectiveSize: 500, tau: 2, kappa: 0.9 });
      model.update(first);
      const restored = pgLogitFamily.restore(decodeSnapshot(bytes(model)).snapshot);
      expect(bytes(restored)).toEqual(bytes(model));
      model.update(second);
      restored.update(second);
      expect(bytes(restored)).toEqual(bytes(model));
    }), { numRuns: 25 });
  });

  it('a layout-1 snapshot (no prior covariance) restores: Σ₀ recovered from Σ₀⁻¹, everything else bit for bit, learning on identically', () => {
    const data = dataset(8, 60, 3);
    const model = pgLogitFamily.create(3, { prior: { mean: [0.1, 0, -0.2], covariance: [[2, 0.3, 0], [0.3, 1, 0.1], [0, 0.1, 4]] }, tol: 1e-9, replay: 0 });
    model.update(data);
    const current = model.snapshot();
    const { priorCovariance, baseShift: _s, basePrecision: _p, siteX: _x, siteY: _y, siteWeights: _w, siteXi: _xi, ...layout1Arrays } = current.arrays;
    const { replay: _r, ...layout1Header } = current.header;
    const restored = pgLogitFamily.restore({ ...current, version: 1, header: layout1Header, arrays: layout1Arrays });
    const again = restored.snapshot();
    expect(again.version).toBe(3);
    expectClose(again.arrays.priorCovariance, priorCovariance, { rel: 1e-12, abs: 1e-15 }, 'prior covariance');
    expect(encodeSnapshot({ ...again, arrays: { ...again.arrays, priorCovariance } })).toEqual(encodeSnapshot(current));
    model.update(data);
    restored.update(data);
    expect(restored.posteriorMean()).toEqual(model.posteriorMean());
    expect(() => pgLogitFamily.restore({ ...current, version: 1, header: layout1Header, arrays: { ...layout1Arrays, priorPrecision: new Float64Array(4) } })).toThrow(/priorPrecision/);
  });

  it('merge: λ₁ equals the one model fed both exactly (conjugate in the augmented space); λ₂ is the SDA-Bayes sum of deltas', () => {
    fc.assert(fc.property(caseArb, ({ seed, n, d, variance }) => {
      const data = dataset(seed, 2 * n, d);
      const a = { x: data.x.subarray(0, n * d), y: data.y.subarray(0, n), n, d };
      const b = { x: data.x.subarray(n * d), y: data.y.subarray(n), n, d };
      const options = { prior: { covariance: variance } };
      const left = pgLogitFamily.create(d, options);
      const right = pgLogitFamily.create(d, options);
      const both = pgLogitFamily.create(d, options);
      left.update(a);
      right.update(b);
      both.update(data);
      const lambdaA = left.naturalParameters();
      const lambdaB = right.naturalParameters();
      const prior = resolvePgLogitPrior(d, options.prior);
      left.merge(right);
      const merged = left.naturalParameters();
      expectClose(merged.lambda1, both.naturalParameters().lambda1, { rel: 1e-12, abs: 1e-12 }, 'lambda1');
      expectClose(merged.lambda2, lambdaA.lambda2.map((v, i) => v + lambdaB.lambda2[i] + 0.5 * prior.precision[i]), { rel: 1e-12, abs: 1e-12 }, 'lambda2');
      expect(left.recordsSeen).toBe(2 * n);
    }), { numRuns: 30 });
  });

  it('merging a model that saw nothing is the identity; svi models and different priors are refused, leaving the model untouched', () => {
    const data = dataset(5, 40, 3);
    const model = pgLogitFamily.create(3);
    model.update(data);
    const before = model.naturalParameters();
    model.merge(pgLogitFamily.create(3));
    expectClose(model.naturalParameters().lambda1, before.lambda1, { rel: 1e-14, abs: 1e-15 }, 'lambda1');
    const snapshot = bytes(model);
    expect(() => model.merge(pgLogitFamily.create(3, { prior: { covariance: 2 } }))).toThrow(ConfigError);
    expect(() => model.merge(pgLogitFamily.create(3, { mode: 'svi', effectiveSize: 10 }))).toThrow(ConfigError);
    expect(bytes(model)).toEqual(snapshot);
  });

  it('labels ±1 and 0/1 fit identically; weights 2 equal a duplicated record', () => {
    const data = dataset(9, 30, 3);
    const a = pgLogitFamily.create(3);
    const b = pgLogitFamily.create(3);
    a.update(data);
    b.update({ ...data, y: signed(data.y) });
    expect(bytes(b)).toEqual(bytes(a));
    const weighted = pgLogitFamily.create(3, { tol: 1e-14 });
    const weights = new Float64Array(30).fill(1);
    weights[0] = 2;
    weighted.update({ ...data, weights });
    const duplicated = pgLogitFamily.create(3, { tol: 1e-14 });
    const x = new Float64Array(31 * 3);
    x.set(data.x.subarray(0, 3));
    x.set(data.x, 3);
    duplicated.update({ x, y: Float64Array.of(data.y[0], ...data.y), n: 31, d: 3 });
    expectClose(weighted.posteriorMean(), duplicated.posteriorMean(), { rel: 1e-9, abs: 1e-12 }, 'mean');
  });

  it('predict returns for any logit variance: a feature of 1e200 (v = Infinity) gives ½, huge v the normal limit Φ(m/√v), continuous where the quadrature hands over (issue 26, item 15)', () => {
    for (const v of [1e12, 1e100, 1e300, Infinity]) {
      for (const m of [-1e6, -3, 0, 2.5, 1e150]) {
        const p = expectedSigmoid(m, v);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
        expect(Math.abs(p - normalCdf(m / Math.sqrt(v)))).toBeLessThan(1e-12);
      }
    }
    expect(expectedSigmoid(0.7, Infinity)).toBe(0.5);
    for (const m of [-2e4, -5, 0.3, 7, 1e4]) expect(Math.abs(expectedSigmoid(m, 1e8 * (1 - 1e-12)) - expectedSigmoid(m, 1e8 * (1 + 1e-12)))).toBeLessThan(1e-12);
    const model = pgLogitFamily.create(2, undefined, { maxAbsInput: Number.MAX_VALUE }); // past the default input bound, as a library user may set it
    model.update(dataset(3, 50, 2));
    for (const x of [1e8, 1e200]) {
      const p = model.predict(Float64Array.of(x, 1));
      expect(p.mean >= 0 && p.mean <= 1).toBe(true);
    }
  });

  it('options are validated: κ ∈ (0.5, 1], τ ≥ 0, svi needs N, the prior must be positive definite', () => {
    expect(() => pgLogitFamily.create(2, { mode: 'svi' })).toThrow(/effective data size/);
    expect(() => pgLogitFamily.create(2, { mode: 'svi', effectiveSize: 10, kappa: 0.5 })).toThrow(ConfigError);
    expect(() => pgLogitFamily.create(2, { mode: 'svi', effectiveSize: 10, kappa: 1.01 })).toThrow(ConfigError);
    expect(() => pgLogitFamily.create(2, { mode: 'svi', effectiveSize: 10, tau: -1 })).toThrow(ConfigError);
    expect(() => pgLogitFamily.create(2, { prior: { covariance: [[1, 2], [2, 1]] } })).toThrow(/positive definite/);
    expect(() => pgLogitFamily.create(2, { effectiveSize: 10 })).toThrow(ConfigError);
  });

  it('predict: exact E[σ(xᵀβ)] against a fine quadrature, probit close to it, and the logit mean and variance carried', () => {
    fc.assert(fc.property(fc.double({ min: -8, max: 8, noNaN: true }), fc.double({ min: 1e-6, max: 400, noNaN: true }), (m, v) => {
      const s = Math.sqrt(v);
      let reference = 0;
      const h = s / 400;
      for (let k = -8000; k <= 8000; k++) reference += Math.exp(-0.5 * (k / 400) ** 2) * sigmoid(m + k * h);
      reference *= h / (s * Math.sqrt(2 * Math.PI));
      expect(Math.abs(expectedSigmoid(m, v) - reference)).toBeLessThan(1e-11);
    }), { numRuns: 60 });
    fc.assert(fc.property(fc.double({ min: 50, max: 3000, noNaN: true }), fc.double({ min: -4, max: 4, noNaN: true }), fc.double({ min: -20, max: 20, noNaN: true }), (s, ratio, shift) => {
      const m = ratio * s + shift; // the strip rule (30·s nodes) as the reference where it is still affordable
      const h = 0.6 / s;
      let reference = 0;
      for (let k = -Math.ceil(9 / h); k <= Math.ceil(9 / h); k++) reference += Math.exp(-0.5 * (k * h) ** 2) * sigmoid(m + s * k * h);
      reference *= h / Math.sqrt(2 * Math.PI);
      expect(Math.abs(expectedSigmoid(m, s * s) - reference)).toBeLessThan(1e-12);
    }), { numRuns: 40 });
    expect(expectedSigmoid(1e12, 1e30), 'a logit variance of 1e30 (a feature near 1e12): Φ(m/√v), at the cost of any other').toBeCloseTo(normalCdf(1e-3), 14);
    const model = pgLogitFamily.create(2);
    model.update(dataset(3, 50, 2));
    const huge = model.predict(Float64Array.of(1, 1e12));
    expect(huge.prob >= 0 && huge.prob <= 1).toBe(true);
    const x = Float64Array.of(1, 0.7);
    const exact = model.predict(x);
    const probit = model.predict(x, 0, 'probit');
    expect(exact.logitMean).toBeCloseTo(model.posteriorMean()[0] + 0.7 * model.posteriorMean()[1], 12);
    const cov = model.covariance();
    expect(exact.logitVariance).toBeCloseTo(cov[0] + 1.4 * cov[1] + 0.49 * cov[3], 12);
    expect(Math.abs(exact.prob - probit.prob)).toBeLessThan(0.02);
  });

  it('sample draws β with the posterior mean and covariance', () => {
    const model = pgLogitFamily.create(2);
    model.update(dataset(4, 40, 2));
    const rng = Rng.fromSeed(12);
    const draws = 40_000;
    const sum = [0, 0];
    const outer = [0, 0, 0, 0];
    const mean = model.posteriorMean();
    const out = new Float64Array(2);
    for (let k = 0; k < draws; k++) {
      model.sample(rng, out);
      for (let i = 0; i < 2; i++) {
        sum[i] += out[i];
        for (let j = 0; j < 2; j++) outer[i * 2 + j] += (out[i] - mean[i]) * (out[j] - mean[j]);
      }
    }
    const cov = model.covariance();
    for (let i = 0; i < 2; i++) expect(Math.abs(sum[i] / draws - mean[i])).toBeLessThan(5 * Math.sqrt(cov[i * 3] / draws));
    expectClose(outer.map((v) => v / draws), cov, { absOfMax: 0.05 }, 'sample covariance');
  });

  it('sda streaming (replay 0): λ₁ after batches equals the one-batch λ₁, the full-data ELBO is below the batch CAVI\'s; the summary reports N in svi mode', () => {
    const data = dataset(21, 90, 3);
    const streamed = pgLogitFamily.create(3, { replay: 0 });
    for (let k = 0; k < 3; k++) streamed.update({ x: data.x.subarray(k * 90, (k + 1) * 90), y: data.y.subarray(k * 30, (k + 1) * 30), n: 30, d: 3 });
    const batch = pgLogitFamily.create(3);
    batch.update(data);
    expectClose(streamed.naturalParameters().lambda1, batch.naturalParameters().lambda1, { rel: 1e-12, abs: 1e-12 }, 'lambda1');
    expect(streamed.elbo(data)).toBeLessThan(batch.elbo(data));
    expect(streamed.summary().effectiveDataSize).toBe(90);
    const svi = pgLogitFamily.create(3, { mode: 'svi', effectiveSize: 1000 });
    svi.update(data);
    expect(svi.summary().effectiveDataSize).toBe(1000);
    expect(svi.recordsSeen).toBe(90);
  });
});
