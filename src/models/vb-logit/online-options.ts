import type { OptionDocs } from '../../core/option-docs.js';
import { ADAPTIVE_FORGETTING_OPTION_DOCS, type AdaptiveForgettingOptions } from '../../forgetting/adaptive-forgetting-options.js';

/** Options of `vb-logit-online`. */
export interface VbLogitOnlineOptions extends AdaptiveForgettingOptions {
  /** Precision of the prior N(0, I/priorPrecision); default d, as VBLinLogit (eq. 81). */
  readonly priorPrecision?: number;
  /** Per-record relative bound change that stops the ξ iteration; default 1e-5 (the reference). */
  readonly tol?: number;
  /** Maximum ξ steps per record; default 500. */
  readonly maxIter?: number;
}

/** What each option of {@link VbLogitOnlineOptions} means. */
export const VB_LOGIT_ONLINE_OPTION_DOCS: OptionDocs = {
  priorPrecision: 'precision of the prior N(0, I/priorPrecision) (default d, the reference eq. 81)',
  tol: 'per-record relative bound change that stops the ξ iteration (default 1e-5)',
  maxIter: 'maximum ξ steps per record (default 500)',
  ...ADAPTIVE_FORGETTING_OPTION_DOCS,
};
