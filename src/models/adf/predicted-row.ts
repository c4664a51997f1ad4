import { emptyLogitTilt, type LogitTilt } from './logit-tilt.js';
import { stableShape } from '../../core/stable-shape.js';

/**
 * What the last `predict` computed for its row under the current q: the row, V·x, μ = xᵀw,
 * s² = xᵀVx and (logit, 0 < s² ≤ the quadrature's range) the record's {@link LogitTilt}. An update
 * whose first record is that row, with q unchanged since, takes them instead of computing them
 * again: a test-then-train step pays for one O(d²) product and one quadrature, not two. Any change
 * of q clears `valid`.
 */
export interface PredictedRow {
  readonly x: Float64Array;
  readonly vx: Float64Array;
  mu: number;
  s2: number;
  valid: boolean;
  hasTilt: boolean;
  readonly tilt: LogitTilt;
}

/** An empty (invalid) {@link PredictedRow} for dimension `dim`. */
export function emptyPredictedRow(dim: number): PredictedRow {
  return stableShape({ x: new Float64Array(dim), vx: new Float64Array(dim), mu: 0, s2: 0, valid: false, hasTilt: false, tilt: emptyLogitTilt() }, ['mu', 's2']);
}
