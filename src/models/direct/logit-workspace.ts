import { DirectLogisticBound } from './logistic-bound.js';
import type { DirectLogitState } from './logit-state.js';

/**
 * What a `direct-logit` model caches and reuses: the Theorem-2 bound (its buffers are the step's
 * scratch), the gradient, the signed labels and feature images of a batch (grown as needed), φ(x) of
 * one record, and q with its means and variances at the current logits (valid while `current`).
 */
export interface DirectLogitWorkspace {
  readonly bound: DirectLogisticBound;
  readonly gradient: Float64Array;
  readonly row: Float64Array;
  signs: Float64Array;
  phi: Float64Array;
  readonly q: Float64Array;
  readonly logQ: Float64Array;
  readonly mean: Float64Array;
  readonly variance: Float64Array;
  current: boolean;
}

/** A workspace for `state`'s grid. */
export function createDirectLogitWorkspace(state: DirectLogitState): DirectLogitWorkspace {
  const { b, mbar } = state.grid;
  return {
    bound: new DirectLogisticBound(state.grid), gradient: new Float64Array(b * mbar), row: new Float64Array(b),
    signs: new Float64Array(0), phi: new Float64Array(0),
    q: new Float64Array(b * mbar), logQ: new Float64Array(b * mbar), mean: new Float64Array(b), variance: new Float64Array(b), current: false,
  };
}
