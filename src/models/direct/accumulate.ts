import { gramAccumulateUpper } from '../../linalg/gram-accumulate-upper.js';
import type { DirectStatistics } from './state.js';

/**
 * Adds n rows of features Φ (row-major n×b, read from `phi`) with labels `y[yOffset ..]` and optional
 * weights to the statistics of Theorem 1: ΦᵀΦ += ΦᵀWΦ (upper triangle; the lower one is filled
 * by `completeGram`), Φᵀy += ΦᵀWy, yᵀy += yᵀWy, n += Σw. O(b²/2) per row, no allocation;
 * rows are added in order, so a stream cut anywhere gives bit-identical sums.
 */
export function accumulateDirect(stats: DirectStatistics, phi: Float64Array, n: number, y: Float64Array, yOffset = 0, weights?: Float64Array): void {
  const b = stats.b;
  const w = weights === undefined ? undefined : weights.subarray(yOffset, yOffset + n);
  gramAccumulateUpper(phi, n, b, stats.gram, w);
  if (n > 0) stats.complete = false;
  const phiTy = stats.phiTy;
  for (let r = 0; r < n; r++) {
    const weight = w === undefined ? 1 : w[r];
    const wy = weight * y[yOffset + r];
    const base = r * b;
    for (let j = 0; j < b; j++) phiTy[j] += wy * phi[base + j];
    stats.yty += wy * y[yOffset + r];
    stats.n += weight;
  }
  stats.records += n;
}
