import type { DirectPosterior } from './posterior.js';
import { DirectLogisticBound } from './logistic-bound.js';
import { DirectLogitMixtureBound } from './logit-mixture-bound.js';
import type { DirectLogitState } from './logit-state.js';

/**
 * What a `direct-logit` model caches and reuses: the Theorem-2 bound (its buffers are the step's
 * scratch) and, with components > 1, the mixture bound; the gradient, the signed labels and feature
 * images of a batch (grown as needed), φ(x) of one record, and q with its means and variances at the
 * current logits (for a mixture, the marginals Σ_k π_k q_k and per component; valid while `current`).
 */
export interface DirectLogitWorkspace {
  readonly bound: DirectLogisticBound;
  readonly mixture: DirectLogitMixtureBound | undefined;
  readonly gradient: Float64Array;
  readonly row: Float64Array;
  signs: Float64Array;
  phi: Float64Array;
  readonly q: Float64Array;
  readonly logQ: Float64Array;
  readonly mean: Float64Array;
  readonly variance: Float64Array;
  /** For a mixture (r > 1): π (r), the component marginals (r·b×m̄), means and variances (r×b). */
  readonly components: { readonly weights: Float64Array; readonly probs: Float64Array; readonly means: Float64Array; readonly variances: Float64Array };
  current: boolean;
}

/** A workspace for `state`'s grid and components. */
export function createDirectLogitWorkspace(state: DirectLogitState): DirectLogitWorkspace {
  const { b, mbar } = state.grid;
  const r = state.settings.components;
  return {
    bound: new DirectLogisticBound(state.grid), mixture: r === 1 ? undefined : new DirectLogitMixtureBound(state.grid, r),
    gradient: new Float64Array(state.logits.length), row: new Float64Array(b),
    signs: new Float64Array(0), phi: new Float64Array(0),
    q: new Float64Array(b * mbar), logQ: new Float64Array(b * mbar), mean: new Float64Array(b), variance: new Float64Array(b),
    components: { weights: new Float64Array(r), probs: new Float64Array(r * b * mbar), means: new Float64Array(r * b), variances: new Float64Array(r * b) } satisfies DirectPosterior['components'],
    current: false,
  };
}
