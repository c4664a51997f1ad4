import type { OptionDocs } from '../../core/option-docs.js';
import type { GaussianPriorOptions } from '../../gaussian/gaussian-prior-options.js';
import { ADAPTIVE_FORGETTING_OPTION_DOCS, type AdaptiveForgettingOptions } from '../../forgetting/adaptive-forgetting-options.js';

/** Options of `adf-logit`, `adf-probit` and `adf-poisson` (adaptive forgetting on by default for `adf-logit` only). */
export interface AdfOptions extends AdaptiveForgettingOptions {
  /** The prior N(mean, covariance) of β; default N(0, I). */
  readonly prior?: GaussianPriorOptions;
  /** Gauss–Hermite nodes of the tilted moments and of the logit predictive (the largest rule; narrow projections use fewer where they agree to 1e-10); default 32. */
  readonly quadratureNodes?: number;
  /** Recent records whose EP sites are kept and revisited; default {@link DEFAULT_ADF_WINDOW}, 0 is plain ADF. */
  readonly window?: number;
  /** Sites of the window refined (sweeping newest to oldest) after each new record; default 1. */
  readonly revisits?: number;
}

/** The default `window`: EP refinement over the last 2,000 records. */
export const DEFAULT_ADF_WINDOW = 2000;

/** What each option of {@link AdfOptions} means. */
export const ADF_OPTION_DOCS: OptionDocs = {
  prior: {
    mean: 'prior mean: a number (every coefficient) or one per coefficient (default 0)',
    covariance: 'prior covariance: a variance (isotropic), one variance per coefficient, a d×d matrix or d·d values row by row (default 1: N(0, I))',
  },
  quadratureNodes: 'Gauss–Hermite nodes, at most 360, for the tilted moments and the predictive of adf-logit and for weighted records of adf-probit; adf-poisson does not use them. adf-logit uses this rule for projections xᵀVx above 0.75 and a smaller one (3 to 24 nodes, centred on the tilted mode) below, where it agrees with a 160-node rule to 1e-10 (default 32)',
  window: 'the most recent records whose EP sites are kept (features, label, weight and the site\'s two numbers) so they can be revisited: each new record is absorbed by ADF, then `revisits` sites of the window are refined by an EP step (cavity, tilted moments, new site). Records leaving the window keep their last site. Costs window × (d + 5) floats of state (default 2000; 0: plain single-pass ADF)',
  revisits: 'EP refinements of window sites after each new record, sweeping the window from the newest record to the oldest and starting over; each costs about one record\'s update, O(d²) (default 1; 0 keeps the window without revisiting)',
  ...ADAPTIVE_FORGETTING_OPTION_DOCS,
};
