/** Exact predictive moments of y* under q (eq. 9 and its second-moment analogue). */
export interface DirectPredictiveMoments {
  /** E[y*] = φ*ᵀs (eq. 9). */
  readonly mean: number;
  /** Var[f*], f* = φ*ᵀw: Σ_j φ*_j² Var_q(w_j) under mean field; for a mixture, Σ_k π_k (Σ_j φ*_j² Var_k(w_j) + (φ*ᵀs_k − E[f*])²). */
  readonly varianceF: number;
  /** Var[y*] = Var[f*] + E_q[σ²]. */
  readonly variance: number;
}

/**
 * The predictive mean (eq. 9) and variance at the features `phi[offset .. offset+b)` of a mixture of
 * r factorised q's (r = 1: mean field) from the weights π, the components' means s_k and variances
 * Var_k(w_j) (r×b row-major) and E_q[σ²]; exact, by the law of total variance. O(r·b), no allocation
 * beyond the result.
 */
export function directPredictiveMoments(weights: ArrayLike<number>, means: Float64Array, variances: Float64Array, expectedNoise: number, phi: Float64Array, offset = 0): DirectPredictiveMoments {
  const r = weights.length;
  const b = means.length / r;
  let mean = 0;
  for (let k = 0; k < r; k++) {
    let m = 0;
    for (let j = 0; j < b; j++) m += phi[offset + j] * means[k * b + j];
    mean += weights[k] * m;
  }
  let v = 0;
  for (let k = 0; k < r; k++) {
    let m = 0;
    let within = 0;
    for (let j = 0; j < b; j++) {
      const x = phi[offset + j];
      m += x * means[k * b + j];
      within += x * x * variances[k * b + j];
    }
    v += weights[k] * (within + (m - mean) * (m - mean));
  }
  return { mean, varianceF: v, variance: v + expectedNoise };
}
