import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { accumulateDirect } from './accumulate.js';
import { adoptDirectFit } from './adopt-fit.js';
import { completeGram } from './complete-gram.js';
import { evaluateDirectPosterior } from './evaluate-posterior.js';
import { fitDirectQ } from './q-fit.js';
import type { DirectState } from './state.js';
import type { DirectWorkspace } from './workspace.js';

/**
 * Adds a (checked) batch to the statistics of Theorem 1 (O(b²) per record; through the feature map
 * chunk by chunk), completes ΦᵀΦ and marks the fit stale; once `refitEvery` records have arrived
 * since the last committed fit, fits q and commits it, reporting its ELBO and L-BFGS iterations.
 */
export function directStep(state: DirectState, batch: Batch, workspace: DirectWorkspace): UpdateStats {
  const { stats, features } = state;
  if (features === undefined) {
    accumulateDirect(stats, batch.x, batch.n, batch.y, 0, batch.weights);
  } else {
    const b = features.outputDim;
    const chunk = workspace.chunk;
    const rows = chunk.length / b;
    for (let start = 0; start < batch.n; start += rows) {
      const count = Math.min(rows, batch.n - start);
      for (let r = 0; r < count; r++) features.map(batch.x, (start + r) * batch.d, chunk, r * b);
      accumulateDirect(stats, chunk, count, batch.y, start, batch.weights);
    }
  }
  completeGram(stats);
  state.sinceFit += batch.n;
  state.stale = true;
  if (state.settings.refitEvery === 0 || state.sinceFit < state.settings.refitEvery) return { records: batch.n };
  const fit = fitDirectQ(state, workspace);
  adoptDirectFit(state, fit);
  return { records: batch.n, objective: evaluateDirectPosterior(state.grid, workspace, fit).elbo, iterations: fit.diagnostics.iterations };
}
