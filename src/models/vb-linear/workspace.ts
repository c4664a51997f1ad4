import { cholesky } from '../../linalg/cholesky.js';
import type { VbLinearPosterior } from './posterior.js';
import type { VbLinearState } from './state.js';
import { fitVbLinear } from './variational-fit.js';

/**
 * What a vb-linear model caches: the VB fit of the current statistics and the Cholesky factor of
 * its V_N (computed on demand), both dropped when the statistics change, and the warm start: E[α]
 * of the last fit, kept across changes, from which the next fit starts its fixed-point iteration
 * (so a predict after a one-record update costs a few VB passes, not a fit from c0/d0). A model
 * whose posterior was never read (a fresh, restored or cloned model) fits from scratch, exactly
 * the reference's fit.
 */
export interface VbLinearWorkspace {
  posterior: VbLinearPosterior | undefined;
  covarianceFactor: Float64Array | undefined;
  warmAlpha: Float64Array | undefined;
}

/** An empty workspace. */
export function vbLinearWorkspace(): VbLinearWorkspace {
  return { posterior: undefined, covarianceFactor: undefined, warmAlpha: undefined };
}

/** Marks the fit stale (after a change of the statistics); the warm start stays. */
export function resetVbLinearWorkspace(workspace: VbLinearWorkspace): void {
  workspace.posterior = undefined;
  workspace.covarianceFactor = undefined;
}

/** The fitted posterior of `state`, cached in the workspace until the statistics change; the fit starts from the last fit's E[α]. */
export function vbLinearPosterior(state: VbLinearState, workspace: VbLinearWorkspace): VbLinearPosterior {
  if (workspace.posterior === undefined) {
    const posterior = fitVbLinear(state, workspace.warmAlpha);
    workspace.posterior = posterior;
    if (posterior.stopReason === 'converged') workspace.warmAlpha = posterior.E_a;
  }
  return workspace.posterior;
}

/** The lower Cholesky factor of V_N, cached likewise. */
export function vbLinearCovarianceFactor(state: VbLinearState, workspace: VbLinearWorkspace): Float64Array {
  if (workspace.covarianceFactor === undefined) {
    const d = state.dim;
    const factor = new Float64Array(d * d);
    const { V, pruned } = vbLinearPosterior(state, workspace);
    if (pruned.includes(1)) {
      // V_N is 0 on the pruned rows and columns: factor it with 1 on their diagonal, then zero those.
      const full = V.slice();
      for (let i = 0; i < d; i++) if (pruned[i] === 1) full[i * d + i] = 1;
      cholesky(full, d, factor, { what: 'posterior covariance V_N' });
      for (let i = 0; i < d; i++) if (pruned[i] === 1) factor[i * d + i] = 0;
    } else {
      cholesky(V, d, factor, { what: 'posterior covariance V_N' });
    }
    workspace.covarianceFactor = factor;
  }
  return workspace.covarianceFactor;
}
