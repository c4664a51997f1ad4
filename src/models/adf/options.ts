import type { OptionDocs } from '../../core/option-docs.js';
import type { GaussianPriorOptions } from '../../gaussian/gaussian-prior-options.js';

/** Options of `adf-logit` and `adf-probit`. */
export interface AdfOptions {
  /** The prior N(mean, covariance) of β; default N(0, I). */
  readonly prior?: GaussianPriorOptions;
  /** Gauss–Hermite nodes of the tilted moments and of the logit predictive; default 32. */
  readonly quadratureNodes?: number;
}

/** What each option of {@link AdfOptions} means. */
export const ADF_OPTION_DOCS: OptionDocs = {
  prior: {
    mean: 'prior mean: a number (every coefficient) or one per coefficient (default 0)',
    covariance: 'prior covariance: a variance (isotropic), one variance per coefficient, a d×d matrix or d·d values row by row (default 1: N(0, I))',
  },
  quadratureNodes: 'Gauss–Hermite nodes, at most 360, for the tilted moments and the predictive of adf-logit and for weighted records of adf-probit (default 32)',
};
