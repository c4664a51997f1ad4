import { axpy } from '../../linalg/axpy.js';
import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import { shermanMorrisonUpdate } from '../../linalg/sherman-morrison-update.js';
import { symmetricRank1Update } from '../../linalg/symmetric-rank1-update.js';
import type { JaakkolaJordanRow } from '../../likelihoods/jaakkola-jordan-row.js';
import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { signedLabels } from '../../core/signed-labels.js';
import { logSigmoid } from '../../special/log-sigmoid.js';
import type { VbLogitOnlineState } from './online-state.js';
import type { VbLogitOnlineWorkspace } from './online-workspace.js';
import { jaakkolaJordanRowFit } from '../../likelihoods/jaakkola-jordan-row-fit.js';

/**
 * Absorbs one record (features `x[offset .. offset+d)`, label y = ±1) by Drugowitsch eq. (82)–(91):
 * ξ is iterated for this record alone in O(1) per step ({@link JaakkolaJordanRow}), then the accepted
 * update is applied once in O(d²): w ← m − a·s·Vx (eq. 84), V by Sherman–Morrison (eq. 85), V⁻¹ by a
 * rank-one addition (eq. 82) and ln|V| by the determinant lemma (eq. 87). `vx` (length d) and `row`
 * are scratch; nothing is allocated. A numerical error is thrown before anything is written.
 * Returns the number of ξ steps.
 */
export function onlineVbLogitRecord(state: VbLogitOnlineState, x: Float64Array, offset: number, y: number, vx: Float64Array, row: JaakkolaJordanRow): number {
  const d = state.dim;
  const p = state.posterior;
  gemv(p.V, d, d, x, vx, 1, 0, offset);
  const c = dot(vx, x, d, 0, offset);
  const xw = dot(p.w, x, d, 0, offset);
  const iterations = jaakkolaJordanRowFit(row, c, xw, y, p.q, p.logDetV, state.tol, state.maxIter);
  axpy(0.5 * y - row.a * row.s, vx, p.w, d);
  shermanMorrisonUpdate(p.V, d, vx, 2 * row.lambda, c);
  symmetricRank1Update(p.invV, d, 2 * row.lambda, x, offset);
  p.logDetV += row.logDetRatio;
  p.q = row.wt;
  state.records += 1;
  return iterations;
}

/**
 * Absorbs a checked batch record by record, in order (each its own ξ); returns the ξ steps taken in
 * all (by the leading posterior under adaptive forgetting, where every candidate absorbs each record and
 * is scored by its predictive ln σ(y·xᵀw/√(1 + πc/8)), MacKay's approximation from the record's own
 * c = xᵀVx and xᵀw).
 */
export function vbLogitOnlineStep(state: VbLogitOnlineState, batch: Batch, workspace: VbLogitOnlineWorkspace): UpdateStats {
  if (workspace.labels.length < batch.n) workspace.labels = new Float64Array(batch.n);
  const y = signedLabels(batch, workspace.labels);
  const d = state.dim;
  let iterations = 0;
  if (state.forgetting === undefined) {
    for (let r = 0; r < batch.n; r++) iterations += onlineVbLogitRecord(state, batch.x, r * d, y[r], workspace.vx, workspace.row);
    return { records: batch.n, iterations };
  }
  const row = workspace.row;
  state.forgetting.step(state, batch.n, (member, r) => {
    const steps = onlineVbLogitRecord(member, batch.x, r * d, y[r], workspace.vx, row);
    if (member === state) iterations += steps;
    const xw = row.s - 0.5 * y[r] * row.c;
    return logSigmoid((y[r] * xw) / Math.sqrt(1 + (Math.PI / 8) * row.c));
  });
  return { records: batch.n, iterations };
}
