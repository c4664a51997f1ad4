import type { OptionDocs } from '../../core/option-docs.js';

/** Options of `vb-logit` / `vb-logit-ard`. Defaults follow VBLinLogit. */
export interface VbLogitOptions {
  /** Gamma hyperprior α ~ Gam(a0, b0) on the weight precision (Drugowitsch eq. 41). */
  readonly prior?: { readonly a0?: number; readonly b0?: number };
  /** Relative bound change that stops the VB passes; default 1e-5 (the reference). */
  readonly tol?: number;
  /** Maximum VB passes per update; default 500. */
  readonly maxIter?: number;
  /**
   * `vb-logit` only: a fixed prior precision α instead of the Gamma hyperprior: prior N(0, I/α), no
   * q(α) update, and the bound is the plain Jaakkola–Jordan bound (the `pg-logit` CAVI fixed point at
   * that prior). `prior` is then unused.
   */
  readonly alpha?: number;
  /**
   * The most recent records kept with their local ξ and re-optimised with every update, older records
   * frozen in the data sums as the second-order expansion of their re-optimised sites; default 2000, 0
   * for plain streaming VB. With at least as many records as seen, any batching ends at the one-batch
   * fixed point.
   */
  readonly replay?: number;
}

const SHARED_DOCS: OptionDocs = {
  prior: {
    a0: 'shape of the Gamma hyperprior on the weight precision α (default 1e-2)',
    b0: 'rate of the Gamma hyperprior on α (default 1e-4)',
  },
  tol: 'relative change of the variational bound that stops the VB passes of an update (default 1e-5)',
  maxIter: 'maximum VB passes per update (default 500)',
  replay: 'the most recent records kept with their local ξ and re-optimised by every update\'s VB passes (their Jaakkola–Jordan sites removed and re-added); a record leaving them is frozen into the data sums as the second-order expansion, around the current mean, of its re-optimised site (default 2000; 0: plain streaming VB, each batch\'s ξ optimised once and its sites frozen at them, the behaviour before the replay). With at least as many records as seen, any batching ends at the one-batch fixed point',
};

/** What each option of `vb-logit` means. */
export const VB_LOGIT_OPTION_DOCS: OptionDocs = {
  ...SHARED_DOCS,
  alpha: 'a fixed prior precision α instead of the hyperprior: prior N(0, I/α), no q(α) update (default: none)',
};

/** What each option of `vb-logit-ard` means (no fixed α: ARD learns one precision per weight). */
export const VB_LOGIT_ARD_OPTION_DOCS: OptionDocs = SHARED_DOCS;
