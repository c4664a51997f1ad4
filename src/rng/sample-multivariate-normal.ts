import type { Rng } from './rng.js';

/**
 * One draw of N(mean, L·Lᵀ) given the lower Cholesky factor L (row-major n×n): out = mean + L·z
 * with z standard normal. `z` (length n) is scratch space; pass it to avoid allocation.
 */
export function sampleMultivariateNormal(rng: Rng, mean: Float64Array, l: Float64Array, n: number, out: Float64Array = new Float64Array(n), z: Float64Array = new Float64Array(n)): Float64Array {
  for (let i = 0; i < n; i++) z[i] = rng.normal();
  for (let i = 0; i < n; i++) {
    let sum = mean[i];
    const row = i * n;
    for (let k = 0; k <= i; k++) sum += l[row + k] * z[k];
    out[i] = sum;
  }
  return out;
}
