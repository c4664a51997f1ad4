/** Exact predictive moments of y* under the factorised q (eq. 9 and its second-moment analogue). */
export interface DirectPredictiveMoments {
  /** E[y*] = φ*ᵀs (eq. 9). */
  readonly mean: number;
  /** Var[f*] = Σ_j φ*_j² Var_q(w_j), f* = φ*ᵀw (the weights are independent under q). */
  readonly varianceF: number;
  /** Var[y*] = Var[f*] + E_q[σ²]. */
  readonly variance: number;
}

/**
 * The predictive mean (eq. 9) and variance at the features `phi[offset .. offset+b)` from the
 * posterior means s, the variances Var_q(w_j) and E_q[σ²]. O(b), no allocation beyond the result.
 */
export function directPredictiveMoments(mean: Float64Array, variance: Float64Array, expectedNoise: number, phi: Float64Array, offset = 0): DirectPredictiveMoments {
  let m = 0;
  let v = 0;
  for (let j = 0; j < mean.length; j++) {
    const x = phi[offset + j];
    m += x * mean[j];
    v += x * x * variance[j];
  }
  return { mean: m, varianceF: v, variance: v + expectedNoise };
}

