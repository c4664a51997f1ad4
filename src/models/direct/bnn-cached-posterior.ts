import { evaluateDirectBnn } from './bnn-evaluate-posterior.js';
import { fitDirectBnn } from './bnn-fit.js';
import type { DirectBnnPosterior } from './bnn-posterior.js';
import type { DirectBnnState } from './bnn-state.js';
import type { DirectBnnWorkspace } from './bnn-workspace.js';

/** The posterior of `state`, cached in the workspace: fitted from the committed logits when the statistics changed since the committed fit (the state left as it was), else the committed q. */
export function directBnnPosterior(state: DirectBnnState, workspace: DirectBnnWorkspace): DirectBnnPosterior {
  if (workspace.posterior === undefined) {
    workspace.posterior = state.stale ? fitDirectBnn(state, workspace) : evaluateDirectBnn(state, workspace, state.logits, state.lastFit);
  }
  return workspace.posterior;
}
