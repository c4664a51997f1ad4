import { gaussianFromCovariance } from '../../src/models/vi-per/gaussian-prior.js';

/** KL(N(m0, S0) ‖ N(m1, S1)) for d×d row-major covariances. */
export function gaussianKl(m0: ArrayLike<number>, s0: Float64Array, m1: ArrayLike<number>, s1: Float64Array, d: number): number {
  const p = gaussianFromCovariance(Float64Array.from(m1), s1, d);
  const q = gaussianFromCovariance(Float64Array.from(m0), s0, d);
  let trace = 0;
  let mahalanobis = 0;
  for (let i = 0; i < d; i++) {
    for (let j = 0; j < d; j++) {
      trace += p.precision[i * d + j] * s0[j * d + i];
      mahalanobis += (m1[i] - m0[i]) * p.precision[i * d + j] * (m1[j] - m0[j]);
    }
  }
  return 0.5 * (trace + mahalanobis - d + p.logDet - q.logDet);
}
