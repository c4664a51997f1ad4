import { Rng } from '../src/rng/rng.js';

/** Seeded logistic data: x ~ N(0, I) with x₁ = 1, w ~ N(0, I/d)·3, labels 0/1. */
export function syntheticLogistic(n: number, d: number, seed: number): { x: Float64Array; y: Float64Array; w: Float64Array } {
  const rng = Rng.fromSeed(seed);
  const w = Float64Array.from({ length: d }, () => (3 * rng.normal()) / Math.sqrt(d));
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let score = 0;
    for (let j = 0; j < d; j++) {
      const v = j === 0 ? 1 : rng.normal();
      x[r * d + j] = v;
      score += w[j] * v;
    }
    y[r] = rng.nextDouble() < 1 / (1 + Math.exp(-score)) ? 1 : 0;
  }
  return { x, y, w };
}
