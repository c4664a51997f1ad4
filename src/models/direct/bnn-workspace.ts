import { DirectBnnElbo } from './bnn-objective.js';
import type { DirectBnnPosterior } from './bnn-posterior.js';
import type { DirectBnnState } from './bnn-state.js';

/** What a `direct-bnn` model caches and reuses: the objective over the state's statistics (the fit's scratch), x̃ of one record, and the posterior of the current state. */
export interface DirectBnnWorkspace {
  readonly elbo: DirectBnnElbo;
  readonly xt: Float64Array;
  posterior: DirectBnnPosterior | undefined;
}

/** A workspace reading `state`'s grid and statistics (which keep their identity for the model's life). */
export function createDirectBnnWorkspace(state: DirectBnnState): DirectBnnWorkspace {
  return { elbo: new DirectBnnElbo(state.shape, state.grid, state.stats), xt: new Float64Array(state.shape.D), posterior: undefined };
}
