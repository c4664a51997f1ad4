import { DirectCavi } from './cavi.js';
import { DirectMixtureElbo } from './mixture-objective.js';
import { DirectElbo } from './objective.js';
import type { DirectPosterior } from './posterior.js';
import type { DirectState } from './state.js';

/** Records mapped through the feature map per chunk of an update (bounds the scratch buffer). */
const CHUNK_ROWS = 64;

/**
 * What a `direct` model caches and reuses: the objectives over the state's grid and statistics (their
 * buffers are the fit's scratch), the feature images of one record and of a chunk of a batch, and
 * the posterior fitted from the current state (until the state changes).
 */
export interface DirectWorkspace {
  readonly elbo: DirectElbo;
  readonly cavi: DirectCavi;
  readonly mixture: DirectMixtureElbo | undefined;
  /** φ(x) of one record (with a feature map). */
  readonly row: Float64Array;
  /** φ of up to 64 records of a batch (with a feature map; empty without). */
  readonly chunk: Float64Array;
  posterior: DirectPosterior | undefined;
}

/** A workspace reading `state`'s grid and statistics (which keep their identity for the model's life). */
export function createDirectWorkspace(state: DirectState): DirectWorkspace {
  const { grid, stats, settings, features } = state;
  return {
    elbo: new DirectElbo(grid, stats),
    cavi: new DirectCavi(grid, stats),
    mixture: settings.components === 1 ? undefined : new DirectMixtureElbo(grid, stats, settings.components),
    row: new Float64Array(features === undefined ? 0 : grid.b),
    chunk: new Float64Array(features === undefined ? 0 : CHUNK_ROWS * grid.b),
    posterior: undefined,
  };
}
