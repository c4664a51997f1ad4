import { cholesky } from '../../linalg/cholesky.js';
import { mirrorUpper } from '../../linalg/mirror-upper.js';
import type { VbLinearPosterior } from './posterior.js';
import { vbLinearPosteriorOf } from './posterior-of.js';
import type { VbLinearState } from './state.js';

/**
 * What a vb-linear model caches: the posterior view of the state (with V_N⁻¹, E[α] and the bound,
 * computed on demand), the Cholesky factor of V_N (for draws) and the last predicted x with V_N·x
 * (test-then-train updates with the record just predicted), all dropped when the state changes,
 * and the scratch of the updates (V_N·x of one record, the matrices of a minibatch's solve).
 */
export interface VbLinearWorkspace {
  posterior: VbLinearPosterior | undefined;
  covarianceFactor: Float64Array | undefined;
  readonly scratch: Float64Array;
  /** The last predicted x and V_N·x (valid until the state changes): an update with that record reuses them. */
  readonly predictedX: Float64Array;
  readonly predictedVx: Float64Array;
  predictedValid: boolean;
  /** Scratch (3·d²) of a minibatch's one-solve update, allocated by the first. */
  block: Float64Array | undefined;
}

/** An empty workspace. */
export function vbLinearWorkspace(state: VbLinearState): VbLinearWorkspace {
  return { posterior: undefined, covarianceFactor: undefined, scratch: new Float64Array(state.dim),
    predictedX: new Float64Array(state.dim), predictedVx: new Float64Array(state.dim), predictedValid: false, block: undefined,
  };
}

/** Drops the caches (after a change of the state). */
export function resetVbLinearWorkspace(workspace: VbLinearWorkspace): void {
  workspace.posterior = undefined;
  workspace.covarianceFactor = undefined;
  workspace.predictedValid = false;
}

/** The posterior of `state` (a copy, with V_N⁻¹, E[α] and the bound), cached until the state changes. */
export function vbLinearPosterior(state: VbLinearState, workspace: VbLinearWorkspace): VbLinearPosterior {
  workspace.posterior ??= vbLinearPosteriorOf(state);
  return workspace.posterior;
}

/** The lower Cholesky factor of V_N, cached likewise. */
export function vbLinearCovarianceFactor(state: VbLinearState, workspace: VbLinearWorkspace): Float64Array {
  if (workspace.covarianceFactor === undefined) {
    const d = state.dim;
    const factor = new Float64Array(d * d);
    const { pruned } = state;
    const V = state.V.slice();
    mirrorUpper(V, d);
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
