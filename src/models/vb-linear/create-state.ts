import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import type { VbLinearOptions } from './options.js';
import { refitVbLinear } from './refit.js';
import { VB_LINEAR_DEFAULT_PRIOR, VB_LINEAR_DEFAULT_PRUNE_THRESHOLD, VB_LINEAR_DEFAULT_REFIT_FRACTION, type VbLinearState } from './state.js';

/** The state of a model with no data (its posterior is the VB fit of no records); a bad option value throws `ConfigError`. */
export function createVbLinearState(dim: number, ard: boolean, options: VbLinearOptions): VbLinearState {
  const p = options.prior ?? {};
  const state: VbLinearState = {
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
    refitFraction: optionChecks.nonNegative('refitFraction', options.refitFraction, VB_LINEAR_DEFAULT_REFIT_FRACTION),
    w: new Float64Array(dim), V: new Float64Array(dim * dim), logDetV: 0, an: 0, bn: 0,
    alpha: new Float64Array(ard ? dim : 1), pruned: new Float64Array(dim),
    iterations: 0, stopReason: 'converged', warm: false, sinceRefit: 0,
  };
  refitVbLinear(state);
  return state;
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
