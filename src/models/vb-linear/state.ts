/** Hyperparameters of Drugowitsch's linear model: τ ~ Gam(a0, b0), α ~ Gam(c0, d0) (shape, rate). */
export interface VbLinearPrior {
  readonly a0: number;
  readonly b0: number;
  readonly c0: number;
  readonly d0: number;
}

/**
 * Sufficient statistics of the linear model (XᵀX, Xᵀy, yᵀy, n, all weighted: everything a refit
 * needs, O(d³) per pass whatever n is), the fixed settings, and the current posterior q(w, τ) with
 * the E[α] it is built with, which the per-record updates carry between refits.
 */
export interface VbLinearState {
  readonly dim: number;
  readonly ard: boolean;
  readonly prior: VbLinearPrior;
  /** Relative bound change that stops the fit (reference: 1e-5). */
  readonly tol: number;
  readonly maxIter: number;
  /** ARD: E[α_i] at which weight i is pruned to exactly 0 (scikit-learn's threshold_lambda); Infinity for no pruning and for `vb-linear`. */
  readonly pruneThreshold: number;
  /** XᵀX, d×d; between refits only its upper triangle (j ≥ i) is current, each refit mirrors it. */
  readonly xtx: Float64Array;
  readonly xty: Float64Array;
  yty: number;
  /** Weighted record count N. */
  n: number;
  /** Records absorbed (unweighted). */
  records: number;
  /** Refit q(α) when the weighted records since the last refit reach this fraction of N (0: on every update). */
  readonly refitFraction: number;
  /** Posterior mean w_N (eq. 9), exact for the E[α] in `alpha` (updated per record between refits). */
  readonly w: Float64Array;
  /** Scaled covariance V_N = (XᵀX + diag E[α])⁻¹ (eq. 8), d×d; pruned rows and columns are 0. Between refits only its upper triangle is current (readers mirror a copy). */
  readonly V: Float64Array;
  logDetV: number;
  /** a_N = a0 + N/2 and b_N (eq. 10–11) of q(τ). */
  an: number;
  bn: number;
  /** The E[α] (one value, or one per weight with ARD) that V_N is built with, held between refits. */
  readonly alpha: Float64Array;
  /** 1 for each weight ARD pruned at the last refit (mean exactly 0, out of V_N). */
  readonly pruned: Float64Array;
  /** VB passes and stop reason of the last refit. */
  iterations: number;
  stopReason: 'converged' | 'bound-decreased' | 'max-iterations';
  /** Whether the next refit starts from the current E[α] (the last refit converged on data) rather than from c0/d0. */
  warm: boolean;
  /** Weighted records absorbed since the last refit. */
  sinceRefit: number;
}

/** The reference defaults (VBLinLogit vb_linear_fit): a0 = c0 = 1e-2, b0 = d0 = 1e-4. */
export const VB_LINEAR_DEFAULT_PRIOR: VbLinearPrior = { a0: 1e-2, b0: 1e-4, c0: 1e-2, d0: 1e-4 };

/** Default {@link VbLinearState.refitFraction}: a refit after every 10% growth of N. */
export const VB_LINEAR_DEFAULT_REFIT_FRACTION = 0.1;

/** scikit-learn ARDRegression's threshold_lambda. */
export const VB_LINEAR_DEFAULT_PRUNE_THRESHOLD = 1e4;
