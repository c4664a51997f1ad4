import type { Rng } from '../../rng/rng.js';

/**
 * k-means++ seeding (Arthur & Vassilvitskii 2007): M rows of x (n×d) chosen one by one with
 * probability proportional to the squared distance to the nearest already chosen row, written to
 * `out` (M×d). With fewer than M distinct rows, the remaining centres are chosen rows moved by
 * N(0, (0.1·sd_j)²) per column, so that Kuu stays positive definite. Used to initialise Z.
 */
export function kmeansPlusPlus(x: Float64Array, n: number, d: number, M: number, rng: Rng, out: Float64Array): void {
  const nearest = new Float64Array(n).fill(Infinity);
  const sd = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += x[i * d + j];
    mean /= n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (x[i * d + j] - mean) ** 2;
    sd[j] = Math.sqrt(ss / n) || 1;
  }
  let chosen = Math.min(n - 1, Math.floor(rng.nextDouble() * n));
  for (let a = 0; a < M; a++) {
    let total = 0;
    if (a > 0) {
      for (let i = 0; i < n; i++) total += nearest[i];
      if (total > 0) {
        let target = rng.nextDouble() * total;
        chosen = n - 1;
        for (let i = 0; i < n; i++) {
          target -= nearest[i];
          if (target <= 0) { chosen = i; break; }
        }
      } else chosen = Math.min(n - 1, Math.floor(rng.nextDouble() * n));
    }
    for (let j = 0; j < d; j++) out[a * d + j] = x[chosen * d + j] + (a > 0 && total === 0 ? 0.1 * sd[j] * rng.normal() : 0);
    for (let i = 0; i < n; i++) {
      let dist = 0;
      for (let j = 0; j < d; j++) dist += (x[i * d + j] - out[a * d + j]) ** 2;
      if (dist < nearest[i]) nearest[i] = dist;
    }
  }
}
