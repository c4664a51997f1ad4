import type { DirectBnnPosterior } from './bnn-posterior.js';
import type { DirectBnnState } from './bnn-state.js';

/** Commits a fit to the state: its logits become the warm start of the next fit and the posterior until the statistics change. */
export function adoptDirectBnnFit(state: DirectBnnState, fit: DirectBnnPosterior): void {
  state.logits.set(fit.logits);
  state.stale = false;
  state.sinceFit = 0;
  state.lastFit = { iterations: fit.iterations, converged: fit.converged, startElbos: [...fit.startElbos] };
}
