import { describe, expect, it } from 'vitest';
import { accumulateDirectBnn } from '../../src/models/direct/bnn-accumulate.js';
import { createDirectBnnState } from '../../src/models/direct/bnn-create-state.js';
import { directBnnFamily } from '../../src/models/direct/bnn-family.js';
import { DirectBnnElbo } from '../../src/models/direct/bnn-objective.js';
import type { DirectBnnState } from '../../src/models/direct/bnn-state.js';
import { Rng } from '../../src/rng/rng.js';

/**
 * The reference is exact enumeration: every weight configuration of a network small enough to list
 * (3-point grids; d = 1, H = 1: 3⁴ = 81 configurations; d = 2, H = 2: 3⁹ = 19,683) times every noise
 * atom, with f(x; W) = Σ_h v_h (u_hᵀx̃)² + c computed forward. Tolerances: ELBO and predictive
 * moments 1e-10 relative to max(1, |value|) (sums of ≤ 4·10⁴ products in double precision).
 */
interface Case { readonly name: string; readonly d: number; readonly H: number; readonly n: number; readonly seed: number }

const CASES: Case[] = [
  { name: 'd = 1, H = 1', d: 1, H: 1, n: 12, seed: 3 },
  { name: 'd = 2, H = 2', d: 2, H: 2, n: 10, seed: 7 },
];

const NOISE = [0.3, 1.5];

function setUp(c: Case) {
  const rng = Rng.fromSeed(c.seed);
  const b = c.H * (c.d + 1) + c.H + 1;
  const support = Array.from({ length: b }, (_, j) => [-0.9 - 0.1 * (j % 3), 0.2 * ((j % 2) - 0.5), 0.8 + 0.05 * j]);
  const priorProbs = Array.from({ length: b }, () => [0.2 + rng.nextDouble(), 0.2 + rng.nextDouble(), 0.2 + rng.nextDouble()]);
  const state = createDirectBnnState(c.d, { hidden: c.H, support, priorProbs, noiseSupport: NOISE, noisePriorProbs: [1, 2] });
  const x = Float64Array.from({ length: c.n * c.d }, () => rng.normal());
  const y = Float64Array.from({ length: c.n }, () => 0.5 + rng.normal());
  const weights = Float64Array.from({ length: c.n }, () => 0.5 + rng.nextDouble());
  accumulateDirectBnn(state.stats, x, c.n, c.d, y, weights, new Float64Array(c.d + 1));
  const logits = Float64Array.from({ length: state.logits.length }, () => rng.normal());
  return { state, x, y, weights, logits, b };
}

function network(state: DirectBnnState, w: Float64Array, x: Float64Array, offset: number): number {
  const { d, D, H } = state.shape;
  let f = w[H * D + H];
  for (let h = 0; h < H; h++) {
    let a = w[h * D + d];
    for (let i = 0; i < d; i++) a += w[h * D + i] * x[offset + i];
    f += w[H * D + h] * a * a;
  }
  return f;
}

/** Calls `visit(w, log q(w), log p(w))` for every configuration of the b weights. */
function enumerate(state: DirectBnnState, logQ: Float64Array, visit: (w: Float64Array, logQw: number, logPw: number) => void): void {
  const { b, mbar, support, logPrior } = state.grid;
  const code = new Int32Array(b);
  const w = new Float64Array(b);
  for (let total = mbar ** b, t = 0; t < total; t++) {
    let rest = t;
    let lq = 0;
    let lp = 0;
    for (let j = 0; j < b; j++) {
      code[j] = rest % mbar;
      rest = Math.floor(rest / mbar);
      const i = j * mbar + code[j];
      w[j] = support[i];
      lq += logQ[i];
      lp += logPrior[i];
    }
    visit(w, lq, lp);
  }
}

function logSoftmax(logits: Float64Array, offset: number, rows: number, width: number): Float64Array {
  const out = new Float64Array(rows * width);
  for (let j = 0; j < rows; j++) {
    const row = Array.from(logits.subarray(offset + j * width, offset + (j + 1) * width));
    const max = Math.max(...row);
    const lse = max + Math.log(row.reduce((s, v) => s + Math.exp(v - max), 0));
    row.forEach((v, m) => { out[j * width + m] = v - lse; });
  }
  return out;
}

function logLikelihood(state: DirectBnnState, w: Float64Array, data: ReturnType<typeof setUp>, sigma2: number): number {
  let total = 0;
  for (let r = 0; r < data.y.length; r++) {
    const e = data.y[r] - network(state, w, data.x, r * state.shape.d);
    total += data.weights[r] * (-0.5 * Math.log(2 * Math.PI * sigma2) - (e * e) / (2 * sigma2));
  }
  return total;
}

function enumeratedElbo(data: ReturnType<typeof setUp>, logits: Float64Array): number {
  const { state } = data;
  const { b, mbar, K, logNoisePrior } = state.grid;
  const logQ = logSoftmax(logits, 0, b, mbar);
  const logQs = logSoftmax(logits, b * mbar, 1, K);
  let elbo = 0;
  enumerate(state, logQ, (w, lq, lp) => {
    const qw = Math.exp(lq);
    for (let k = 0; k < K; k++) {
      const qk = Math.exp(logQs[k]);
      elbo += qw * qk * (logLikelihood(state, w, data, NOISE[k]) + lp - lq + logNoisePrior[k] - logQs[k]);
    }
  });
  return elbo;
}

function tolerance(value: number): number {
  return 1e-10 * Math.max(1, Math.abs(value));
}

describe.each(CASES.map((c) => [c.name, c] as const))('direct-bnn ELBO on enumerable network %s', (_, c) => {
  it('equals the ELBO summed over every configuration of q (random q) to 1e-10', () => {
    const data = setUp(c);
    const objective = new DirectBnnElbo(data.state.shape, data.state.grid, data.state.stats);
    for (let trial = 0; trial < 3; trial++) {
      const logits = data.logits.map((v, i) => v * (1 + trial) + 0.3 * trial * Math.sin(i));
      const reference = enumeratedElbo(data, logits);
      const value = objective.evaluate(logits);
      expect(Math.abs(value - reference)).toBeLessThanOrEqual(tolerance(reference));
    }
  });

  it('has the gradient of its finite differences', () => {
    const data = setUp(c);
    const objective = new DirectBnnElbo(data.state.shape, data.state.grid, data.state.stats);
    const gradient = new Float64Array(objective.size);
    objective.evaluate(data.logits, gradient);
    const h = 1e-6;
    let largest = 0;
    for (let i = 0; i < gradient.length; i++) largest = Math.max(largest, Math.abs(gradient[i]));
    for (let i = 0; i < gradient.length; i++) {
      const plus = data.logits.slice();
      const minus = data.logits.slice();
      plus[i] += h;
      minus[i] -= h;
      const fd = (objective.evaluate(plus) - objective.evaluate(minus)) / (2 * h);
      expect(Math.abs(gradient[i] - fd)).toBeLessThanOrEqual(1e-6 * Math.max(1, largest));
    }
  });

  it('predicts the enumerated mean and variance of f and y to 1e-10, and its fitted ELBO stays below the enumerated log evidence', () => {
    const data = setUp(c);
    const { state } = data;
    const model = directBnnFamily.create(c.d, { hidden: c.H, grid: state.grid, restarts: 3 });
    model.update({ x: data.x, y: data.y, weights: data.weights, n: c.n, d: c.d });
    const posterior = model.posterior();
    const { b, mbar, K, logNoisePrior } = state.grid;
    const logQ = logSoftmax(posterior.logits, 0, b, mbar);
    const xStar = Float64Array.from({ length: c.d }, (_, i) => 0.7 - 0.9 * i);
    let m1 = 0;
    let m2 = 0;
    enumerate(state, logQ, (w, lq) => {
      const f = network(state, w, xStar, 0);
      m1 += Math.exp(lq) * f;
      m2 += Math.exp(lq) * f * f;
    });
    const varianceF = m2 - m1 * m1;
    let expectedNoise = 0;
    for (let k = 0; k < K; k++) expectedNoise += posterior.noiseProbs[k] * NOISE[k];
    const moments = model.moments(xStar);
    expect(Math.abs(moments.mean - m1)).toBeLessThanOrEqual(tolerance(m1));
    expect(Math.abs(moments.varianceF - varianceF)).toBeLessThanOrEqual(tolerance(m2));
    expect(Math.abs(moments.variance - (varianceF + expectedNoise))).toBeLessThanOrEqual(tolerance(m2));
    const prediction = model.predict(xStar);
    expect(prediction.mean).toBe(moments.mean);
    expect(prediction.variance).toBe(moments.variance);

    const terms: number[] = [];
    enumerate(state, logQ, (w, _lq, lp) => {
      for (let k = 0; k < K; k++) terms.push(lp + logNoisePrior[k] + logLikelihood(state, w, data, NOISE[k]));
    });
    const max = Math.max(...terms);
    const logEvidence = max + Math.log(terms.reduce((s, t) => s + Math.exp(t - max), 0));
    expect(Math.abs(posterior.elbo - enumeratedElbo(data, posterior.logits))).toBeLessThanOrEqual(tolerance(posterior.elbo));
    expect(posterior.elbo).toBeLessThanOrEqual(logEvidence);
    expect(posterior.elbo).toBeGreaterThan(new DirectBnnElbo(state.shape, state.grid, state.stats).evaluate(state.logits));
  });
});
