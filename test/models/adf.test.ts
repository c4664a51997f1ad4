import { describe, expect, it } from 'vitest';
import { quadratureScratch } from '../../src/models/adf/quadrature-scratch.js';
import { probitTiltedMoments } from '../../src/models/adf/probit-tilted-moments.js';
import { poissonTiltedMoments } from '../../src/models/adf/poisson-tilted-moments.js';
import { quadratureTiltedMoments } from '../../src/models/adf/quadrature-tilted-moments.js';
import type { TiltedMoments } from '../../src/models/adf/tilted-moments.js';
import { createModel } from '../../src/registry.js';
import { logNormalCdf } from '../../src/special/log-normal-cdf.js';
import { lgamma } from '../../src/special/lgamma.js';
import { logSigmoid } from '../../src/special/log-sigmoid.js';
import { gaussianKl } from '../../src/gaussian/gaussian-kl.js';
import { bruteForceLogZ, bruteForceTilted } from '../helpers/brute-force-tilted.js';
import { countData, logisticData } from '../helpers/synthetic-data.js';

function moments(): TiltedMoments {
  return { logZ: 0, alpha: 0, nu: 0 };
}

describe('adf-logit / adf-probit', () => {
  const x = Float64Array.of(1, -0.4, 0.8);
  const prior = { mean: [0.3, 0.5, -0.2], covariance: [[1.2, 0.3, 0], [0.3, 0.8, -0.1], [0, -0.1, 0.5]] };
  // f = xᵀβ under the prior: μ = 0.3 − 0.2 − 0.16 = −0.06, s² = xᵀΣ₀x.
  const mu = 0.3 * 1 + 0.5 * -0.4 + -0.2 * 0.8;
  const s2 = 1.2 + 0.16 * 0.8 + 0.64 * 0.5 + 2 * (0.3 * -0.4 + 0 * 0.8 + -0.1 * -0.4 * 0.8);

  it.each([
    ['adf-logit', 1, (f: number) => logSigmoid(f)],
    ['adf-logit', 0, (f: number) => logSigmoid(-f)],
    ['adf-probit', 1, (f: number) => logNormalCdf(f)],
    ['adf-probit', 0, (f: number) => logNormalCdf(-f)],
  ] as const)('%s, label %d: one record moves f = xᵀβ to the tilted mean and variance (brute-force integration, 1e-8)', (id, label, logLikelihood) => {
    const model = createModel(id, 3, { prior });
    model.update({ x, y: Float64Array.of(label), n: 1, d: 3 });
    const { w, V } = model.posterior;
    let mean = 0;
    let variance = 0;
    for (let i = 0; i < 3; i++) {
      mean += x[i] * w[i];
      for (let j = 0; j < 3; j++) variance += x[i] * V[i * 3 + j] * x[j];
    }
    const want = bruteForceTilted(logLikelihood, mu, s2);
    expect(Math.abs(mean - want.mean)).toBeLessThan(1e-8);
    expect(Math.abs(variance - want.variance)).toBeLessThan(1e-8);
  });

  // The default 32 nodes meet 1e-8 while s² ≤ 2 (measured: 2.7e-9 at μ = 2.5, s² = 2) but not at
  // s² = 4 (1.4e-6); 64 nodes meet it everywhere here (3e-12 at s² = 4).
  it.each([
    [32, [[-0.06, 1.5, 1], [0.8, 0.3, -1], [2.5, 2, -1], [-1, 0.05, 1]]],
    [64, [[-0.06, 1.5, 1], [0.8, 0.3, -1], [2.5, 2, -1], [-1, 0.05, 1], [0, 4, 1], [-3, 0.7, 1]]],
  ] as const)('the probit closed form equals the %d-node Gauss–Hermite path applied to Φ (1e-8)', (nodes, cases) => {
    const scratch = quadratureScratch(nodes);
    for (const [m, v, y] of cases) {
      const exact = probitTiltedMoments(moments(), m, v, y);
      const quadrature = quadratureTiltedMoments(moments(), 'probit', m, v, y, 1, scratch);
      expect(Math.abs(quadrature.logZ - exact.logZ)).toBeLessThan(1e-8);
      expect(Math.abs(quadrature.alpha - exact.alpha)).toBeLessThan(1e-8);
      expect(Math.abs(quadrature.nu - exact.nu)).toBeLessThan(1e-8);
    }
  });

  it('a weight tempers the likelihood: weight 2 is the record seen twice at once, weight 0 leaves q unchanged', () => {
    const scratch = quadratureScratch(64);
    const doubled = quadratureTiltedMoments(moments(), 'logit', mu, s2, 1, 2, scratch);
    const squared = bruteForceTilted((f) => 2 * logSigmoid(f), mu, s2);
    expect(Math.abs(mu + doubled.alpha * s2 - squared.mean)).toBeLessThan(1e-8);
    expect(Math.abs(s2 - doubled.nu * s2 * s2 - squared.variance)).toBeLessThan(1e-8);
    const model = createModel('adf-logit', 3, { prior });
    model.update({ x, y: Float64Array.of(1), n: 1, d: 3, weights: Float64Array.of(0) });
    expect(Array.from(model.posterior.w)).toEqual(prior.mean);
    expect(model.recordsSeen).toBe(1);
  });

  it('ln|V| follows the determinant lemma', () => {
    const data = logisticData(200, 4, 3);
    const model = createModel('adf-logit', 4);
    model.update(data);
    const { V, logDetV } = model.posterior;
    expect(logDetV).toBeCloseTo(Math.log(determinant(V, 4)), 10);
  });

  // Measured KL(vi-gh ‖ adf) at n = 2000, p = 5 (w ~ N(0, I), prior N(0, I) for both): 0.031 for seed
  // 16, and 0.009, 0.004, 0.019, 0.020, 0.016 for seeds 1–5; vb-logit-online (priorPrecision 1) gives
  // 0.24–5.9 on the same data. The bound is the target, 0.05 (1.6× the largest measured).
  it('n = 2000, p = 5: one ADF pass (window 0) is close to the one-batch vi-gh posterior, KL(vi-gh ‖ adf) < 0.05', () => {
    const data = logisticData(2000, 5, 16);
    const adf = createModel('adf-logit', 5, { window: 0 });
    adf.update(data);
    const vi = createModel('vi-gh', 5);
    vi.update(data);
    const kl = gaussianKl(vi.posteriorMean(), vi.covariance(), adf.posterior.w, adf.posterior.V, 5);
    expect(kl).toBeGreaterThan(0);
    expect(kl).toBeLessThan(0.05);
  });
});

function determinant(a: Float64Array, d: number): number {
  const m = a.slice();
  let det = 1;
  for (let k = 0; k < d; k++) {
    det *= m[k * d + k];
    for (let i = k + 1; i < d; i++) {
      const f = m[i * d + k] / m[k * d + k];
      for (let j = k; j < d; j++) m[i * d + j] -= f * m[k * d + j];
    }
  }
  return det;
}

describe('adf-logit on unscaled features', () => {
  it('learns every record when the projection is wide (features in the tens, prior N(0, I)): no record refused, a finite posterior that fits better than a coin', () => {
    const model = createModel('adf-logit', 3);
    const n = 500;
    const x = new Float64Array(n * 3);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x.set([20 + (i % 40), i % 9, (i % 11) / 2], i * 3);
      y[i] = i % 4 === 0 ? 1 : 0;
    }
    for (let start = 0; start < n; start += 50) model.update({ x: x.subarray(start * 3, (start + 50) * 3), y: y.subarray(start, start + 50), n: 50, d: 3 });
    expect(model.recordsSeen).toBe(n);
    expect(model.posteriorMean().every(Number.isFinite)).toBe(true);
    let logLoss = 0;
    for (let i = 0; i < n; i++) logLoss -= model.predict(x, i * 3).logProb(y[i]);
    expect(logLoss / n).toBeLessThan(Math.log(2));
  });
});

describe('adf-poisson', () => {
  const logPoisson = (y: number) => (f: number) => y * f - Math.exp(f) - lgamma(y + 1);

  // Narrow and wide projections, zero and large counts: the mode-centred rule must hold where a rule
  // centred on N(μ, s²) would not (s² = 100 with y = 50: the tilted density is ~5,000× narrower).
  it.each([
    [0.2, 0.5, 3], [-1, 1.5, 0], [2, 0.1, 7], [0, 4, 1], [0, 100, 50], [3, 25, 0], [-4, 9, 12], [5.5, 0.04, 400],
  ] as const)('tilted moments at μ = %d, s² = %d, y = %d equal brute-force integration (relative 1e-8)', (m, v, y) => {
    const out = quadratureTiltedMomentsOf(m, v, y);
    const want = bruteForceTilted(logPoisson(y), m, v);
    const mean = m + out.alpha * v;
    const variance = v - out.nu * v * v;
    expect(Math.abs(mean - want.mean)).toBeLessThan(1e-8 * Math.max(1, Math.abs(want.mean)));
    expect(Math.abs(variance - want.variance)).toBeLessThan(1e-8 * want.variance);
    expect(out.logZ).toBeCloseTo(bruteForceLogZ(logPoisson(y), m, v), 8);
  });

  it('learns Poisson regression weights from a stream: the truth inside the 99% credible interval of every weight, and the window brings q to the many-revisit EP posterior', () => {
    const d = 4;
    const n = 3000;
    const truth = Float64Array.of(0.8, -0.5, 0.3, 0.1);
    const { x, y } = countData(n, d, 17, truth);
    const model = createModel('adf-poisson', d);
    for (let start = 0; start < n; start += 100) model.update({ x: x.subarray(start * d, (start + 100) * d), y: y.subarray(start, start + 100), n: 100, d });
    const { w, V } = model.posterior;
    for (let j = 0; j < d; j++) expect(Math.abs(w[j] - truth[j])).toBeLessThan(2.58 * Math.sqrt(V[j * d + j]));
    const converged = createModel('adf-poisson', d, { window: n, revisits: 20 });
    converged.update({ x, y, n, d });
    const single = createModel('adf-poisson', d, { window: 0 });
    single.update({ x, y, n, d });
    const klTo = (q: { w: Float64Array; V: Float64Array }) => gaussianKl(converged.posterior.w, converged.posterior.V, q.w, q.V, d);
    expect(klTo(model.posterior)).toBeLessThan(0.01);
    expect(klTo(model.posterior)).toBeLessThan(klTo(single.posterior));
    expect(model.predict(Float64Array.of(1, 0, 0, 0), 0).mean).toBeCloseTo(Math.exp(w[0] + 0.5 * V[0]), 12);
  });
});

function quadratureTiltedMomentsOf(mu: number, s2: number, y: number): TiltedMoments {
  return poissonTiltedMoments(moments(), mu, s2, y, 1);
}
