import { dot } from '../../linalg/dot.js';
import { mirrorUpper } from '../../linalg/mirror-upper.js';
import { quadraticForm } from '../../linalg/quadratic-form.js';
import { updateExpectedAlpha } from './alpha-update.js';
import { vbLinearBoundConstant, vbLinearBoundWithoutConstants } from './objective.js';
import type { VbLinearPosterior } from './posterior.js';
import type { VbLinearState } from './state.js';

/**
 * The posterior of the state as VBLinLogit's vb_linear_fit reports it: copies of w_N and V_N,
 * V_N⁻¹ = XᵀX + diag E[α] (pruned rows and columns 0), E[α] one update ahead of V_N (eq. 13–14 /
 * 30–31) and the bound L(Q) (eq. 22 / 33) at the current q. Right after a refit these are the
 * fit's own values; between refits, those of the per-record posterior.
 */
export function vbLinearPosteriorOf(state: VbLinearState): VbLinearPosterior {
  const { dim: d, ard, prior, xty, yty, w, an, bn, alpha } = state;
  const xtx = state.xtx.slice();
  mirrorUpper(xtx, d);
  const V = state.V.slice();
  mirrorUpper(V, d);
  const pruned = Uint8Array.from(state.pruned);
  let prunedCount = 0;
  for (let i = 0; i < d; i++) prunedCount += pruned[i];
  const invV = xtx.slice();
  for (let i = 0; i < d; i++) invV[i * d + i] += ard ? alpha[i] : alpha[0];
  for (let i = 0; i < d; i++) {
    if (pruned[i] === 0) continue;
    for (let j = 0; j < d; j++) { invV[i * d + j] = 0; invV[j * d + i] = 0; }
  }
  const wXty = dot(w, xty, d);
  const sse = Math.max(0, yty - 2 * wXty + quadraticForm(xtx, d, w));
  const expectedTau = an / bn;
  const E_a = alpha.slice();
  const sumLogDn = updateExpectedAlpha(state, w, V, expectedTau, pruned, E_a);
  let traceXtxV = 0;
  for (let i = 0; i < d * d; i++) traceXtxV += xtx[i] * V[i];
  const alphaCount = (ard ? d : 1) - prunedCount;
  const cn = ard ? prior.c0 + 0.5 : prior.c0 + d / 2;
  const L = vbLinearBoundWithoutConstants({ expectedTau, sse, traceXtxV, logDetV: state.logDetV, an, bn, cn, sumLogDn, alphaCount }, prior)
    + vbLinearBoundConstant(state.n, d - prunedCount, alphaCount, prior);
  return {
    w: w.slice(), V, invV, logDetV: state.logDetV, an, bn, E_a, alpha: alpha.slice(), L,
    iterations: state.iterations, stopReason: state.stopReason, pruned,
  };
}
