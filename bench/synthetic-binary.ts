import { Rng } from '../src/rng/rng.js';
import { normalCdf } from '../src/special/normal-cdf.js';

/**
 * Seeded binary-label data: x ~ N(0, I) with x₁ = 1, labels 0/1 with P(1) = σ(xᵀw) (`logit`, w ~ N(0, I/d)·3)
 * or Φ(xᵀw) (`probit`, the same draws over 1.7, σ(f) ≈ Φ(f/1.7)).
 */
export function syntheticBinary(n: number, d: number, seed: number, link: 'logit' | 'probit'): { x: Float64Array; y: Float64Array; w: Float64Array } {
  const rng = Rng.fromSeed(seed);
  const scale = link === 'probit' ? 1.7 : 1;
  const w = Float64Array.from({ length: d }, () => (3 * rng.normal()) / Math.sqrt(d) / scale);
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let score = 0;
    for (let j = 0; j < d; j++) {
      const v = j === 0 ? 1 : rng.normal();
      x[r * d + j] = v;
      score += w[j] * v;
    }
    y[r] = rng.nextDouble() < (link === 'probit' ? normalCdf(score) : 1 / (1 + Math.exp(-score))) ? 1 : 0;
  }
  return { x, y, w };
}
