/** Result of a VB linear fit, named as in VBLinLogit's vb_linear_fit. */
export interface VbLinearPosterior {
  /** Posterior mean w_N. */
  readonly w: Float64Array;
  /** Scaled covariance V_N: Cov(w | τ) = V_N / τ. */
  readonly V: Float64Array;
  readonly invV: Float64Array;
  readonly logDetV: number;
  readonly an: number;
  readonly bn: number;
  /** E[α] (length 1, or d with ARD), one update ahead of V as in the reference. */
  readonly E_a: Float64Array;
  /** The E[α] V_N is built with (V_N⁻¹ = XᵀX + diag E[α]; between refits, the one held fixed). */
  readonly alpha: Float64Array;
  /** Variational bound with all constants (≤ ln p(y | X)). */
  readonly L: number;
  /** VB passes of the last refit. */
  readonly iterations: number;
  /** Why the VB passes stopped: the relative-change rule, a bound decrease beyond round-off (ill-conditioning), or the pass limit. */
  readonly stopReason: 'converged' | 'bound-decreased' | 'max-iterations';
  /** 1 for each weight ARD pruned (its marginal-likelihood-optimal precision reached `pruneThreshold`): its mean is exactly 0 and its row and column of V and invV are 0. */
  readonly pruned: Uint8Array;
}
