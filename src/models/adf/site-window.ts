import { stableShape } from '../../core/stable-shape.js';

/**
 * The EP sites of the most recent records (Minka 2001 §3.2): record j's likelihood is approximated in
 * q by the site t_j(f) = exp(−½·precision_j·f² + shift_j·f) on its projection f = x_jᵀβ, so it can be
 * taken out of q (the cavity) and put back refined. A ring buffer of `capacity` records: features
 * (capacity × d, row-major), labels ±1, weights and the two site numbers; `head` is the slot the
 * next record takes (the oldest once full), `cursor` the slot last revisited; `written` counts slot
 * writes and `rescaled` the times every site was scaled (`forget`), so a backup can copy only what
 * changed.
 */
export interface SiteWindow {
  readonly capacity: number;
  readonly revisits: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly weight: Float64Array;
  readonly precision: Float64Array;
  readonly shift: Float64Array;
  count: number;
  head: number;
  cursor: number;
  written: number;
  rescaled: number;
}

/** An empty window of `capacity` records of dimension `dim`. */
export function emptySiteWindow(dim: number, capacity: number, revisits: number): SiteWindow {
  return stableShape({
    capacity, revisits, x: new Float64Array(capacity * dim), y: new Float64Array(capacity), weight: new Float64Array(capacity),
    precision: new Float64Array(capacity), shift: new Float64Array(capacity), count: 0, head: 0, cursor: 0, written: 0, rescaled: 0,
  });
}
