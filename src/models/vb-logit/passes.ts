import { jaakkolaJordanXi } from '../../likelihoods/jaakkola-jordan-xi.js';
import { jaakkolaJordanXiTerm } from '../../likelihoods/jaakkola-jordan-xi-term.js';
import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import { gramAccumulate } from '../../linalg/gram-accumulate.js';
import { quadraticForm } from '../../linalg/quadratic-form.js';
import { spdInverse } from '../../linalg/spd-inverse.js';
import { symmetricQuadraticForm } from '../../linalg/symmetric-quadratic-form.js';
import { jaakkolaJordanLambda } from '../../special/jaakkola-jordan-lambda.js';
import { vbLogitBoundConstant, vbLogitGlobalBound } from './objective.js';
import type { VbLogitState } from './state.js';
import type { VbLogitWorkspace } from './workspace.js';

/**
 * VBLinLogit's vb_logit_fit(_ard) iteration (Drugowitsch §3.2 eq. 46–60, ARD §3.4 eq. 72–80,
 * implementation §3.5.2) on a block of n records (row-major `x`, `weights` or 1) whose shift is in
 * `state.dataShift` already, against the frozen sums Λ = `state.dataPrecision` and their bound terms
 * `frozenBound`: λ from the start ξ in `siteXi` (0 for a new record: λ = 1/8), the current E[α], a
 * pre-loop q(w) and bound, then passes that update ξ (eq. 58), q(α) from the previous q(w), and q(w),
 * stopping when the bound decreases or changes by less than tol·|L|; the iterate of the stopping pass
 * is kept, as in the reference. With `state.fixedAlpha` set, α stays fixed (no q(α) update) and the
 * bound is the Jaakkola–Jordan bound under the prior N(0, I/α): ½(wᵀV⁻¹w + ln|V| + d·ln α) plus the
 * data terms. Writes q(w), E[α] and the diagnostics into the state and the final ξ into `siteXi`;
 * returns the bound L̃ with constants and the passes.
 */
export function vbLogitPasses(state: VbLogitState, x: Float64Array, weights: Float64Array | undefined, siteXi: Float64Array, n: number, frozenBound: number,
  workspace: VbLogitWorkspace): { bound: number; iterations: number } {
  const { xi, lambda, rowScale, factor, bn } = workspace;
  const { dim: d, ard, prior, fixedAlpha } = state;
  const { w, V, invV } = state.posterior;
  const alphaCount = ard ? d : 1;
  const an = ard ? prior.a0 + 0.5 : prior.a0 + 0.5 * d;
  const t = state.dataShift;
  let zeroWeight = 0;
  let startTerms = 0;
  for (let r = 0; r < n; r++) {
    const weight = weights === undefined ? 1 : weights[r];
    lambda[r] = jaakkolaJordanLambda(siteXi[r]);
    if (siteXi[r] === 0) zeroWeight += weight;
    else startTerms += weight * jaakkolaJordanXiTerm(siteXi[r], lambda[r]);
  }
  const expectedAlpha = state.expectedAlpha;
  bn.fill(0);
  let logDetV = 0;

  const solveForW = (): void => {
    invV.set(state.dataPrecision);
    for (let r = 0; r < n; r++) rowScale[r] = 2 * lambda[r] * (weights === undefined ? 1 : weights[r]);
    gramAccumulate(x, n, d, invV, 1, rowScale);
    for (let i = 0; i < d; i++) invV[i * d + i] += ard ? expectedAlpha[i] : expectedAlpha[0];
    logDetV = -spdInverse(invV, d, V, factor, { what: 'posterior precision V⁻¹' });
    gemv(V, d, d, t, w);
  };
  const updateBn = (): void => {
    if (fixedAlpha !== undefined) return;
    if (ard) for (let i = 0; i < d; i++) bn[i] = prior.b0 + 0.5 * (w[i] * w[i] + V[i * d + i]);
    else {
      let traceV = 0;
      for (let i = 0; i < d; i++) traceV += V[i * d + i];
      bn[0] = prior.b0 + 0.5 * (dot(w, w, d) + traceV);
    }
  };
  const sumLog = (values: Float64Array): number => values.reduce((sum, v) => sum + Math.log(v), 0);
  const globalBound = (q: number, expectedAlphaSum: number): number => fixedAlpha !== undefined
    ? 0.5 * (q + logDetV + d * Math.log(fixedAlpha))
    : vbLogitGlobalBound(q, logDetV, prior, an, expectedAlphaSum, sumLog(bn), alphaCount);

  solveForW();
  updateBn();
  let expectedAlphaSum = 0;
  for (let i = 0; i < alphaCount; i++) expectedAlphaSum += fixedAlpha ?? an / bn[i];
  let last = startTerms - zeroWeight * Math.LN2 + frozenBound + globalBound(quadraticForm(invV, d, w), expectedAlphaSum);
  let bound = last;
  let q = 0;
  let iterations = 0;
  let stopReason: VbLogitState['stopReason'] = 'max-iterations';
  for (let iter = 1; iter <= state.maxIter; iter++) {
    iterations = iter;
    for (let r = 0; r < n; r++) {
      xi[r] = jaakkolaJordanXi(dot(w, x, d, 0, r * d), symmetricQuadraticForm(V, d, x, r * d));
      lambda[r] = jaakkolaJordanLambda(xi[r]);
    }
    updateBn();
    expectedAlphaSum = 0;
    for (let i = 0; i < alphaCount; i++) {
      if (fixedAlpha === undefined) expectedAlpha[i] = an / bn[i];
      expectedAlphaSum += expectedAlpha[i];
    }
    solveForW();
    q = quadraticForm(invV, d, w);
    let dataTerms = 0;
    for (let r = 0; r < n; r++) dataTerms += (weights === undefined ? 1 : weights[r]) * jaakkolaJordanXiTerm(xi[r], lambda[r]);
    bound = dataTerms + frozenBound + globalBound(q, expectedAlphaSum);
    if (last > bound) {
      stopReason = 'bound-decreased';
      break;
    }
    if (Math.abs(last - bound) < Math.abs(state.tol * bound)) {
      stopReason = 'converged';
      break;
    }
    last = bound;
  }
  siteXi.set(xi.subarray(0, n));
  state.posterior.logDetV = logDetV;
  state.posterior.q = q;
  state.bound = bound + (fixedAlpha === undefined ? vbLogitBoundConstant(prior, alphaCount) : 0);
  state.iterations = iterations;
  state.stopReason = stopReason;
  return { bound: state.bound, iterations };
}
