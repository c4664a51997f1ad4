import { cholesky } from '../../linalg/cholesky.js';
import type { VbLinearPosterior } from './posterior.js';
import type { VbLinearState } from './state.js';
import { fitVbLinear } from './variational-fit.js';

/** What a vb-linear model caches: the VB fit of the current statistics and the Cholesky factor of its V_N (computed on demand). */
export interface VbLinearWorkspace {
  posterior: VbLinearPosterior | undefined;
  covarianceFactor: Float64Array | undefined;
}

/** The fitted posterior of `state`, cached in the workspace until the statistics change. */
export function vbLinearPosterior(state: VbLinearState, workspace: VbLinearWorkspace): VbLinearPosterior {
  workspace.posterior ??= fitVbLinear(state);
  return workspace.posterior;
}

/** The lower Cholesky factor of V_N, cached likewise. */
export function vbLinearCovarianceFactor(state: VbLinearState, workspace: VbLinearWorkspace): Float64Array {
  if (workspace.covarianceFactor === undefined) {
    const d = state.dim;
    const factor = new Float64Array(d * d);
    cholesky(vbLinearPosterior(state, workspace).V, d, factor, { what: 'posterior covariance V_N' });
    workspace.covarianceFactor = factor;
  }
  return workspace.covarianceFactor;
}
