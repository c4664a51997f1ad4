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
   * `vb-linear-ard` only: a weight whose expected precision E[α_i] reaches this value is pruned —
   * its posterior mean is set exactly to 0 and its row and column of the covariance to 0, and it
   * leaves the rest of the fit (scikit-learn ARDRegression's `threshold_lambda`). Default 1e4;
   * `Infinity` turns pruning off (the reference vb_linear_fit_ard). VB's E[α_i] of an irrelevant
   * weight settles at a value of the order of N (unlike scikit-learn's re-estimate, which diverges),
   * so a useful threshold depends on the data size (see the guide).
   */
  readonly pruneThreshold?: number;
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
  pruneThreshold: 'vb-linear-ard only: a weight whose expected precision E[α_i] reaches this is pruned — mean exactly 0, its row and column of the covariance 0, out of the rest of the fit (scikit-learn threshold_lambda; default 1e4; Infinity: no pruning; VB\'s E[α_i] of an irrelevant weight settles near N times its feature\'s variance, so choose it for the data size)',
};
