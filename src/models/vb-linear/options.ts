import type { OptionDocs } from '../../core/option-docs.js';

/** Options of `vb-linear` / `vb-linear-ard`. Defaults follow VBLinLogit. */
export interface VbLinearOptions {
  /** Gamma hyperpriors τ ~ Gam(a0, b0) on the noise precision and α ~ Gam(c0, d0) on the weight precision. */
  readonly prior?: { readonly a0?: number; readonly b0?: number; readonly c0?: number; readonly d0?: number };
  /** Relative bound change that stops the fit; default 1e-5 (the reference). */
  readonly tol?: number;
  /** Maximum VB passes; default 500. */
  readonly maxIter?: number;
  /**
   * `vb-linear-ard` only: a weight whose marginal-likelihood-optimal prior precision (Tipping & Faul
   * 2003; ∞ when the data do not favour the weight; the value scikit-learn's re-estimate converges
   * to) reaches this value is pruned — its posterior mean is set exactly to 0 and its row and column
   * of the covariance to 0, and it leaves the rest of the fit (scikit-learn ARDRegression's
   * `threshold_lambda`). Default 1e4; `Infinity` turns pruning off (the reference vb_linear_fit_ard).
   */
  readonly pruneThreshold?: number;
  /**
   * Refit q(α) (the O(d³) VB fixed point, warm-started) when the weighted records since the last
   * refit reach this fraction of N (N counted as at least 10·d, so refits cost O(d²) per record
   * amortised), and on every update while N < 2d; between refits each record updates q(w, τ) exactly for the E[α] held, in O(d²).
   * Default 0.1; 0 refits on every update (the batch VB fit after each).
   */
  readonly refitFraction?: number;
}

/** What each option of {@link VbLinearOptions} means. */
export const VB_LINEAR_OPTION_DOCS: OptionDocs = {
  prior: {
    a0: 'shape of the Gamma prior on the noise precision τ (default 1e-2)',
    b0: 'rate of the Gamma prior on τ (default 1e-4)',
    c0: 'shape of the Gamma prior on the weight precision α (default 1e-2)',
    d0: 'rate of the Gamma prior on α (default 1e-4)',
  },
  tol: 'relative change of the variational bound that stops the fit (default 1e-5)',
  maxIter: 'maximum VB passes per fit (default 500)',
  pruneThreshold: 'vb-linear-ard only: a weight whose marginal-likelihood-optimal prior precision (Tipping & Faul 2003; infinite when the data do not favour it) reaches this is pruned — mean exactly 0, its row and column of the covariance 0, out of the rest of the fit (scikit-learn threshold_lambda; default 1e4; Infinity: no pruning)',
  refitFraction: 'refit the precisions E[α] (O(d³), warm-started) when the weighted records since the last refit reach this fraction of N (N counted as at least 10·d), and on every update while N < 2d; between refits each record is an exact O(d²) update for the E[α] held (default 0.1; 0: refit on every update)',
};
