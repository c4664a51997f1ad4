import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import type { VbLinearOptions } from './options.js';

/** Hyperparameters of Drugowitsch's linear model: τ ~ Gam(a0, b0), α ~ Gam(c0, d0) (shape, rate). */
export interface VbLinearPrior {
  readonly a0: number;
  readonly b0: number;
  readonly c0: number;
  readonly d0: number;
}

/**
 * Sufficient statistics of the linear model (XᵀX, Xᵀy, yᵀy, n, all weighted) plus the fixed
 * settings. Everything the fit needs, so a fit costs O(d³) per iteration whatever n is.
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
  readonly xtx: Float64Array;
  readonly xty: Float64Array;
  yty: number;
  /** Weighted record count N. */
  n: number;
  /** Records absorbed (unweighted). */
  records: number;
}

/** The reference defaults (VBLinLogit vb_linear_fit): a0 = c0 = 1e-2, b0 = d0 = 1e-4. */
export const VB_LINEAR_DEFAULT_PRIOR: VbLinearPrior = { a0: 1e-2, b0: 1e-4, c0: 1e-2, d0: 1e-4 };

/** scikit-learn ARDRegression's threshold_lambda. */
export const VB_LINEAR_DEFAULT_PRUNE_THRESHOLD = 1e4;

/** The state of a model with no data; a bad option value throws `ConfigError`. */
export function createVbLinearState(dim: number, ard: boolean, options: VbLinearOptions): VbLinearState {
  const p = options.prior ?? {};
  return {
    dim, ard,
    prior: {
      a0: optionChecks.positive('prior.a0', p.a0, VB_LINEAR_DEFAULT_PRIOR.a0),
      b0: optionChecks.positive('prior.b0', p.b0, VB_LINEAR_DEFAULT_PRIOR.b0),
      c0: optionChecks.positive('prior.c0', p.c0, VB_LINEAR_DEFAULT_PRIOR.c0),
      d0: optionChecks.positive('prior.d0', p.d0, VB_LINEAR_DEFAULT_PRIOR.d0),
    },
    tol: optionChecks.positive('tol', options.tol, 1e-5),
    maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 500),
    pruneThreshold: pruneThresholdOf(ard, options.pruneThreshold),
    xtx: new Float64Array(dim * dim), xty: new Float64Array(dim), yty: 0, n: 0, records: 0,
  };
}

function pruneThresholdOf(ard: boolean, value: unknown): number {
  if (!ard) {
    if (value !== undefined) throw new ConfigError('applies to vb-linear-ard only (one precision per weight)', { field: 'pruneThreshold', value });
    return Infinity;
  }
  const v = value === undefined ? VB_LINEAR_DEFAULT_PRUNE_THRESHOLD : value;
  if (typeof v !== 'number' || !(v > 0)) throw new ConfigError('must be a positive number (Infinity: no pruning)', { field: 'pruneThreshold', value: v });
  return v;
}
