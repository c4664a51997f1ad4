import { DirectBnnElbo } from './bnn-objective.js';
import type { DirectBnnPosterior } from './bnn-posterior.js';
import type { DirectBnnState } from './bnn-state.js';
import { TemperedDirectBnnElbo } from './bnn-tempered-objective.js';

/** What a `direct-bnn` model caches and reuses: the objective over the state's statistics (the fit's scratch) and its tempered form, x̃ of one record, and the posterior of the current state. */
export interface DirectBnnWorkspace {
  readonly elbo: DirectBnnElbo;
  readonly tempered: TemperedDirectBnnElbo;
  readonly xt: Float64Array;
  posterior: DirectBnnPosterior | undefined;
}

/** A workspace reading `state`'s grid and statistics (which keep their identity for the model's life). */
export function createDirectBnnWorkspace(state: DirectBnnState): DirectBnnWorkspace {
  const elbo = new DirectBnnElbo(state.shape, state.grid, state.stats);
  return { elbo, tempered: new TemperedDirectBnnElbo(elbo), xt: new Float64Array(state.shape.D), posterior: undefined };
}
