import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import { spdInverse } from '../../linalg/spd-inverse.js';
import type { VbLogitOnlineState } from './online-state.js';

/** V⁻¹w, the natural shift of q(w) = N(w, V). */
export function naturalShift(state: VbLogitOnlineState): Float64Array {
  const d = state.dim;
  const shift = new Float64Array(d);
  gemv(state.posterior.invV, d, d, state.posterior.w, shift);
  return shift;
}

/** Sets q(w) from its natural parameters (precision V⁻¹, shift V⁻¹w): V, w, ln|V| and wᵀV⁻¹w recomputed, O(d³). */
export function setNaturalParameters(state: VbLogitOnlineState, precision: Float64Array, shift: Float64Array): void {
  const d = state.dim;
  const V = new Float64Array(d * d);
  const logDetPrecision = spdInverse(precision, d, V, new Float64Array(d * d), { what: 'merged posterior precision' });
  const p = state.posterior;
  p.invV.set(precision);
  p.V.set(V);
  gemv(V, d, d, shift, p.w);
  p.logDetV = -logDetPrecision;
  p.q = dot(p.w, shift, d);
}
