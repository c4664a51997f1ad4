import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { signedLabels } from '../../core/signed-labels.js';
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
 * Absorbs a checked batch (labels 0/1 or ±1) into a `vb-logit(-ard)` state by VBLinLogit's
 * vb_logit_fit(_ard) iteration (Drugowitsch §3.2 eq. 46–60, ARD §3.4 eq. 72–80, implementation
 * §3.5.2): ξ = 0 for the new records, E[α] = a0/b0 on an empty model (else the current E[α]), a
 * pre-loop q(w) and bound, then passes that update ξ (eq. 58), q(α) from the previous q(w), and q(w),
 * stopping when the bound decreases or changes by less than tol·|L|; the iterate of the stopping
 * pass is kept, as in the reference. Earlier records enter through the frozen sums in `state`, so a
 * single batch holding all the data reproduces the batch fit exactly. With n = 0 it re-solves
 * q(α) ⇄ q(w) at frozen ξ (after a merge or forget). With `state.fixedAlpha` set, α stays fixed (no
 * q(α) update) and the bound is the Jaakkola–Jordan bound under the prior N(0, I/α):
 * ½(wᵀV⁻¹w + ln|V| + d·ln α) plus the data terms. Writes q(w) into the state as it goes (the shell
 * puts the state back if a solve fails).
 */
export function vbLogitStep(state: VbLogitState, batch: Batch, workspace: VbLogitWorkspace): UpdateStats {
  const { x, n, weights } = batch;
  if (workspace.labels.length < n) workspace.labels = new Float64Array(n);
  if (workspace.lambda.length < n) {
    workspace.xi = new Float64Array(n);
    workspace.lambda = new Float64Array(n);
    workspace.rowScale = new Float64Array(n);
  }
  const ySigned = signedLabels(batch, workspace.labels);
  const { xi, lambda, rowScale, factor, bn } = workspace;
  const { dim: d, ard, prior, fixedAlpha } = state;
  const { w, V, invV } = state.posterior;
  const alphaCount = ard ? d : 1;
  const an = ard ? prior.a0 + 0.5 : prior.a0 + 0.5 * d;
  const t = state.dataShift;
  let weightSum = 0;
  for (let r = 0; r < n; r++) {
    const weight = weights === undefined ? 1 : weights[r];
    weightSum += weight;
    const scale = 0.5 * weight * ySigned[r];
    for (let j = 0; j < d; j++) t[j] += scale * x[r * d + j];
  }
  lambda.fill(0.125, 0, n);
  const expectedAlpha = state.expectedAlpha;
  if (state.records === 0) expectedAlpha.fill(fixedAlpha ?? prior.a0 / prior.b0);
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
  let last = -weightSum * Math.LN2 + state.frozenBound + globalBound(quadraticForm(invV, d, w), expectedAlphaSum);
  let bound = last;
  let q = 0;
  let dataTerms = 0;
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
    dataTerms = 0;
    for (let r = 0; r < n; r++) dataTerms += (weights === undefined ? 1 : weights[r]) * jaakkolaJordanXiTerm(xi[r], lambda[r]);
    bound = dataTerms + state.frozenBound + globalBound(q, expectedAlphaSum);
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
  for (let r = 0; r < n; r++) rowScale[r] = 2 * lambda[r] * (weights === undefined ? 1 : weights[r]);
  gramAccumulate(x, n, d, state.dataPrecision, 1, rowScale);
  state.frozenBound += dataTerms;
  state.records += n;
  state.posterior.logDetV = logDetV;
  state.posterior.q = q;
  state.bound = bound + (fixedAlpha === undefined ? vbLogitBoundConstant(prior, alphaCount) : 0);
  state.iterations = iterations;
  state.stopReason = stopReason;
  return { records: n, objective: state.bound, iterations };
}
