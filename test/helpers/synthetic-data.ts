import { PoissonLogNormalPredictive } from '../../src/core/predictive/poisson-log-normal-predictive.js';
import { Rng } from '../../src/rng/rng.js';

/** A seeded dataset with its generating weights: x ~ N(0, I), w ~ N(0, I). */
export interface SyntheticData {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly n: number;
  readonly d: number;
  readonly w: Float64Array;
}

/** Linear-Gaussian data: y = xᵀw + 0.3·ε. */
export function linearData(n: number, d: number, seed: number): SyntheticData {
  return generate(n, d, seed, (score, rng) => score + 0.3 * rng.normal());
}

/** Logistic data: y ~ Bernoulli(σ(xᵀw)), labels 0/1. */
export function logisticData(n: number, d: number, seed: number): SyntheticData {
  return generate(n, d, seed, (score, rng) => (rng.nextDouble() < 1 / (1 + Math.exp(-score)) ? 1 : 0));
}

/** Poisson counts y ~ Poisson(e^{xᵀw}) with x₁ = 1 (an intercept) and the other features N(0, 1), for the given weights. */
export function countData(n: number, d: number, seed: number, weights: Float64Array): SyntheticData {
  return generate(n, d, seed, (score, rng) => new PoissonLogNormalPredictive(score, 0).sample(rng), weights, true);
}

function generate(n: number, d: number, seed: number, label: (score: number, rng: Rng) => number, weights?: Float64Array, intercept = false): SyntheticData {
  const rng = Rng.fromSeed(seed);
  const w = weights ?? Float64Array.from({ length: d }, () => rng.normal());
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let j = 0; j < d; j++) { x[r * d + j] = intercept && j === 0 ? 1 : rng.normal(); s += w[j] * x[r * d + j]; }
    y[r] = label(s, rng);
  }
  return { x, y, n, d, w };
}

/** Rows [from, to) of a dataset as a Batch whose row numbers count from the dataset's start. */
export function rows(data: { x: Float64Array; y: Float64Array; d: number }, from: number, to: number) {
  return { x: data.x.subarray(from * data.d, to * data.d), y: data.y.subarray(from, to), n: to - from, d: data.d, firstRow: from + 1 };
}
