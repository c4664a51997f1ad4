import { evaluateDirectPosterior } from './evaluate-posterior.js';
import type { DirectPosterior } from './posterior.js';
import { fitDirectQ } from './q-fit.js';
import type { DirectState } from './state.js';
import type { DirectWorkspace } from './workspace.js';

/**
 * The posterior of `state`, cached in the workspace: when the statistics changed since the committed
 * fit, q is fitted from the committed logits (the warm start) into the workspace, and the state is
 * left as it was; otherwise the committed q is evaluated.
 */
export function directPosterior(state: DirectState, workspace: DirectWorkspace): DirectPosterior {
  if (workspace.posterior === undefined) {
    const fit = state.stale ? fitDirectQ(state, workspace) : { logits: state.logits, mixture: state.mixture, diagnostics: state.lastFit };
    workspace.posterior = evaluateDirectPosterior(state.grid, workspace, fit);
  }
  return workspace.posterior;
}
