import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { accumulateDirectBnn } from './bnn-accumulate.js';
import { adoptDirectBnnFit } from './bnn-adopt-fit.js';
import { fitDirectBnn } from './bnn-fit.js';
import type { DirectBnnState } from './bnn-state.js';
import type { DirectBnnWorkspace } from './bnn-workspace.js';

/**
 * Adds a (checked) batch to the `direct-bnn` statistics (C(D+3, 4) + C(D+1, 2) multiply-adds per
 * record) and marks the fit stale; once `refitEvery` records have arrived since the last committed
 * fit, fits q and commits it, reporting its ELBO and L-BFGS iterations.
 */
export function directBnnStep(state: DirectBnnState, batch: Batch, workspace: DirectBnnWorkspace): UpdateStats {
  accumulateDirectBnn(state.stats, batch.x, batch.n, batch.d, batch.y, batch.weights, workspace.xt);
  state.sinceFit += batch.n;
  state.stale = true;
  if (state.settings.refitEvery === 0 || state.sinceFit < state.settings.refitEvery) return { records: batch.n };
  const fit = fitDirectBnn(state, workspace);
  adoptDirectBnnFit(state, fit);
  return { records: batch.n, objective: fit.elbo, iterations: fit.iterations };
}
