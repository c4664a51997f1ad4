import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import type { AdfState } from './state.js';
import { WIDE_PROJECTION } from './wide-projection.js';
import type { AdfWorkspace } from './workspace.js';

/**
 * Projects the record at `x[offset .. offset + dim)` on q: f = xᵀβ ~ N(μ, s²), kept in the
 * workspace's predicted row with V·x and x (for an update with this row that follows), with whether
 * the record's tilt applies (logit, 0 < s² ≤ 25).
 */
export function projectAdfRow(state: AdfState, workspace: AdfWorkspace, x: Float64Array, offset: number): void {
  const d = state.dim;
  const p = state.posterior;
  const predicted = workspace.predicted;
  gemv(p.V, d, d, x, predicted.vx, 1, 0, offset);
  const variance = dot(predicted.vx, x, d, 0, offset);
  predicted.mu = dot(p.w, x, d, 0, offset);
  for (let i = 0; i < d; i++) predicted.x[i] = x[offset + i];
  predicted.s2 = variance;
  predicted.valid = true;
  predicted.hasTilt = state.link === 'logit' && variance > 0 && variance <= WIDE_PROJECTION;
}
