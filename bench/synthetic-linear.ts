import type { Batch } from '../src/core/batch.js';
import { Rng } from '../src/rng/rng.js';

/**
 * Seeded linear-regression rows: weights w_j = weight(j, rng) drawn first, then x ~ N(0, I) and
 * y = wᵀx + N(0, 0.5²), row by row.
 */
export function syntheticLinear(n: number, d: number, seed: number, weight: (j: number, rng: Rng) => number): Batch {
  const rng = Rng.fromSeed(seed);
  const w = Float64Array.from({ length: d }, (_, j) => weight(j, rng));
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let j = 0; j < d; j++) { const v = rng.normal(); x[r * d + j] = v; s += w[j] * v; }
    y[r] = s + 0.5 * rng.normal();
  }
  return { x, y, n, d };
}
