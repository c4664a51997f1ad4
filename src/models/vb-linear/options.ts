import type { OptionDocs } from '../../core/option-docs.js';

/** Options of `vb-linear` / `vb-linear-ard`. Defaults follow VBLinLogit. */
export interface VbLinearOptions {
  /** Gamma hyperpriors τ ~ Gam(a0, b0) on the noise precision and α ~ Gam(c0, d0) on the weight precision. */
  readonly prior?: { readonly a0?: number; readonly b0?: number; readonly c0?: number; readonly d0?: number };
  /** Relative bound change that stops the fit; default 1e-5 (the reference). */
  readonly tol?: number;
  /** Maximum VB passes; default 500. */
  readonly maxIter?: number;
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
};
