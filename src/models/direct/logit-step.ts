import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { directLogitBatch } from './logit-batch.js';
import type { DirectLogitState } from './logit-state.js';
import type { DirectLogitWorkspace } from './logit-workspace.js';
import type { DirectLogitMixtureBound } from './logit-mixture-bound.js';

/**
 * Takes `stepsPerBatch` Adam steps on the minibatch estimate of the Theorem-2 ELBO bound (eq. 10), or
 * with components > 1 of the mixture bound ({@link DirectLogitMixtureBound}), the likelihood scaled by
 * N/|batch| (N: `dataSize`, or the records seen so far, this batch included); reports the bound before
 * the last step.
 */
export function directLogitStep(state: DirectLogitState, batch: Batch, workspace: DirectLogitWorkspace): UpdateStats {
  const { phi, signs } = directLogitBatch(state, workspace, batch);
  state.records += batch.n;
  const { dataSize, stepsPerBatch } = state.settings;
  const scale = (dataSize > 0 ? dataSize : state.records) / batch.n;
  const gradient = workspace.gradient;
  let objective = 0;
  const mixture = workspace.mixture;
  for (let t = 0; t < stepsPerBatch; t++) {
    objective = mixture === undefined
      ? workspace.bound.evaluate(state.logits, phi, signs, batch.n, scale, gradient, batch.weights)
      : mixture.evaluate(state.logits, phi, signs, batch.n, scale, gradient, batch.weights);
    for (let k = 0; k < gradient.length; k++) gradient[k] = -gradient[k];
    state.adam.step(state.logits, gradient);
  }
  return { records: batch.n, objective, iterations: stepsPerBatch };
}
