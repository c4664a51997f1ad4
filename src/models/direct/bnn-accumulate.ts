import type { DirectBnnStatistics } from './bnn-state.js';

/**
 * Adds n records (x row-major n×d, labels `y`, optional weights) to the `direct-bnn` statistics:
 * with x̃ = (x, 1), T_ijkl += w·x̃_i x̃_j x̃_k x̃_l (i ≤ j ≤ k ≤ l), S_ij += w·y·x̃_i x̃_j (i ≤ j),
 * yᵀWy += w·y². `xt` is scratch of D = d + 1 values. C(D+3, 4) + C(D+1, 2) multiply-adds per record,
 * no allocation; records are added in order, so a stream cut anywhere gives bit-identical sums.
 */
export function accumulateDirectBnn(stats: DirectBnnStatistics, x: Float64Array, n: number, d: number, y: Float64Array, weights: Float64Array | undefined, xt: Float64Array): void {
  const D = d + 1;
  const { fourth, crossY } = stats;
  for (let r = 0; r < n; r++) {
    const w = weights === undefined ? 1 : weights[r];
    for (let i = 0; i < d; i++) xt[i] = x[r * d + i];
    xt[d] = 1;
    const wy = w * y[r];
    let p = 0;
    let s = 0;
    for (let i = 0; i < D; i++) {
      const xi = w * xt[i];
      for (let j = i; j < D; j++) {
        const xij = xi * xt[j];
        crossY[s++] += y[r] * xij;
        for (let k = j; k < D; k++) {
          const xijk = xij * xt[k];
          for (let l = k; l < D; l++) fourth[p++] += xijk * xt[l];
        }
      }
    }
    stats.yty += wy * y[r];
  }
  stats.records += n;
}
