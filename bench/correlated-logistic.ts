import { Rng } from '../src/rng/rng.js';

/** Offsets and scales of features 1..9 (feature 0 is the constant 1); longer feature lists repeat them. */
const OFFSETS = [0, 1, 0, -2, 0, 3, 0, 0.5, 0];
const SCALES = [1, 0.5, 2, 3, 0.3, 1.5, 4, 1, 0.7];

/**
 * A seeded logistic stream closer to real data than {@link syntheticLogistic}: x₀ = 1, and
 * xⱼ = mⱼ + sⱼ·zⱼ for j ≥ 1 with z an AR(1) Gaussian across features (corr(zᵢ, zⱼ) = ρ^|i−j|),
 * offsets mⱼ up to 3 and scales sⱼ from 0.3 to 4. The true weights are drawn on the z scale and
 * normalised so the latent score has standard deviation `scoreSd` around an intercept of
 * `intercept`; `p` holds each record's true P(y = 1).
 */
export function correlatedLogistic(n: number, d: number, seed: number, rho = 0.7, scoreSd = 3, intercept = -0.8): { x: Float64Array; y: Float64Array; p: Float64Array; w: Float64Array } {
  const rng = Rng.fromSeed(seed);
  const k = d - 1;
  const beta = Float64Array.from({ length: k }, () => rng.normal());
  let variance = 0;
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) variance += beta[i] * beta[j] * rho ** Math.abs(i - j);
  const norm = scoreSd / Math.sqrt(variance);
  const w = new Float64Array(d);
  w[0] = intercept;
  for (let j = 1; j < d; j++) {
    w[j] = (beta[j - 1] * norm) / SCALES[(j - 1) % SCALES.length];
    w[0] -= w[j] * OFFSETS[(j - 1) % OFFSETS.length];
  }
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  const p = new Float64Array(n);
  const innovation = Math.sqrt(1 - rho * rho);
  for (let r = 0; r < n; r++) {
    const row = r * d;
    x[row] = 1;
    let score = w[0];
    let z = 0;
    for (let j = 1; j < d; j++) {
      z = j === 1 ? rng.normal() : rho * z + innovation * rng.normal();
      const v = OFFSETS[(j - 1) % OFFSETS.length] + SCALES[(j - 1) % SCALES.length] * z;
      x[row + j] = v;
      score += w[j] * v;
    }
    p[r] = 1 / (1 + Math.exp(-score));
    y[r] = rng.nextDouble() < p[r] ? 1 : 0;
  }
  return { x, y, p, w };
}
