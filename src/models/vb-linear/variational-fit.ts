import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import { quadraticForm } from '../../linalg/quadratic-form.js';
import { spdInverse } from '../../linalg/spd-inverse.js';
import { trace } from '../../linalg/trace.js';
import { vbLinearBoundConstant, vbLinearBoundWithoutConstants } from './objective.js';
import type { VbLinearPosterior } from './posterior.js';
import type { VbLinearState } from './state.js';

/**
 * Variational Bayes for linear regression from sufficient statistics (Drugowitsch §2.2, eq. 7–15;
 * ARD §2.4, eq. 27–32), reproducing VBLinLogit's vb_linear_fit(_ard): start E[α] = c0/d0, update
 * q(w, τ) then q(α), stop when |ΔL| < tol·|L| (reference tol 1e-5) or after maxIter passes. The
 * residual sum of squares is yᵀy − 2wᵀXᵀy + wᵀXᵀXw, which cancels when the fit is nearly exact, so
 * a bound decrease within that round-off (E[τ]·1e-12·(yᵀy + 2|wᵀXᵀy| + wᵀXᵀXw), plus 1e-10·|L|)
 * counts as convergence. A larger decrease (the reference raises an error) can only come from
 * round-off in a badly conditioned V⁻¹; the fit then stops and reports `stopReason:
 * 'bound-decreased'` (with the breaking iterate, as vb_logit_fit does) instead of failing a stream.
 */
export function fitVbLinear(state: VbLinearState): VbLinearPosterior {
  const { dim: d, ard, prior, xtx, xty, yty, n } = state;
  const an = state.prior.a0 + n / 2;
  const cn = ard ? prior.c0 + 0.5 : prior.c0 + d / 2;
  const alphaCount = ard ? d : 1;
  const expectedAlpha = new Float64Array(alphaCount).fill(prior.c0 / prior.d0);
  const invV = new Float64Array(d * d);
  const V = new Float64Array(d * d);
  const factor = new Float64Array(d * d);
  const w = new Float64Array(d);
  let logDetV = 0;
  let bn = 0;
  let L = 0;
  let lLast = -Number.MAX_VALUE;
  let iterations = 0;
  let stopReason: VbLinearPosterior['stopReason'] = 'max-iterations';
  for (let iter = 1; iter <= state.maxIter; iter++) {
    iterations = iter;
    invV.set(xtx);
    for (let i = 0; i < d; i++) invV[i * d + i] += ard ? expectedAlpha[i] : expectedAlpha[0];
    logDetV = -spdInverse(invV, d, V, factor, { what: 'posterior precision V_N⁻¹' });
    gemv(V, d, d, xty, w);
    const wXty = dot(w, xty, d);
    const wXtXw = quadraticForm(xtx, d, w);
    const sse = Math.max(0, yty - 2 * wXty + wXtXw);
    const ww = dot(w, w, d);
    let penalty = 0;
    if (ard) for (let i = 0; i < d; i++) penalty += expectedAlpha[i] * w[i] * w[i];
    else penalty = expectedAlpha[0] * ww;
    bn = prior.b0 + 0.5 * (sse + penalty);
    const expectedTau = an / bn;
    let sumLogDn = 0;
    if (ard) {
      for (let i = 0; i < d; i++) {
        const dn = prior.d0 + 0.5 * (expectedTau * w[i] * w[i] + V[i * d + i]);
        expectedAlpha[i] = cn / dn;
        sumLogDn += Math.log(dn);
      }
    } else {
      const dn = prior.d0 + 0.5 * (expectedTau * ww + trace(V, d));
      expectedAlpha[0] = cn / dn;
      sumLogDn = Math.log(dn);
    }
    let traceXtxV = 0;
    for (let i = 0; i < d * d; i++) traceXtxV += xtx[i] * V[i];
    L = vbLinearBoundWithoutConstants({ expectedTau, sse, traceXtxV, logDetV: logDetV, an, bn, cn, sumLogDn, alphaCount }, prior);
    if (lLast > L) {
      const roundOff = 1e-10 * Math.abs(L) + 1e-12 * expectedTau * (yty + 2 * Math.abs(wXty) + wXtXw);
      stopReason = lLast - L > roundOff ? 'bound-decreased' : 'converged';
      break;
    }
    if (Math.abs(lLast - L) < Math.abs(state.tol * L)) {
      stopReason = 'converged';
      break;
    }
    lLast = L;
  }
  L += vbLinearBoundConstant(n, d, alphaCount, prior);
  return { w, V, invV, logDetV, an, bn, E_a: expectedAlpha, L, iterations, stopReason };
}
