import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { sparseGpOptimiserStep } from './optimiser-step.js';
import { initialiseSparseGp, type SparseGpState } from './state.js';
import type { SparseGpWorkspace } from './workspace.js';

/**
 * Absorbs a checked minibatch of B records: Z and q(u) are initialised from the first one, then
 * `stepsPerUpdate` Adam steps on it with the data term scaled by N/B (N = `dataSize`, or the records
 * seen so far including this batch). The records count once.
 */
export function sparseGpStep(state: SparseGpState, batch: Batch, workspace: SparseGpWorkspace): UpdateStats {
  const { x, y, n } = batch;
  if (!state.initialised) initialiseSparseGp(state, workspace.kernel, x, n);
  const dataSize = state.options.dataSize ?? state.records + n;
  for (let k = 0; k < state.options.stepsPerUpdate; k++) sparseGpOptimiserStep(state, workspace, x, y, n, dataSize / n);
  state.records += n;
  return { records: n, objective: state.lastObjective, iterations: state.options.stepsPerUpdate };
}
