import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { signedLabels } from '../../core/signed-labels.js';
import { replayJaakkolaJordanSites } from '../../likelihoods/replay-jaakkola-jordan-sites.js';
import { vbLogitPasses } from './passes.js';
import type { VbLogitState } from './state.js';
import type { VbLogitWorkspace } from './workspace.js';

/**
 * Absorbs a checked batch (labels 0/1 or ±1) into a `vb-logit(-ard)` state: the batch's shift joins t,
 * E[α] = a0/b0 on an empty model (else the current E[α]), and the VB passes ({@link vbLogitPasses})
 * run on the replayed window with the batch added, the window's ξ as the start and older records
 * entering through the frozen sums (see {@link replayJaakkolaJordanSites}). A single batch holding all
 * the data reproduces the batch fit exactly; with `replay` 0 each batch's ξ are optimised once and
 * frozen (streaming VB). With n = 0 it re-solves q(α) ⇄ q(w) with the window (after a merge or
 * forget). Writes q(w) into the state as it goes (the shell puts the state back if a solve fails).
 */
export function vbLogitStep(state: VbLogitState, batch: Batch, workspace: VbLogitWorkspace): UpdateStats {
  const { x, n, weights } = batch;
  if (workspace.labels.length < n) workspace.labels = new Float64Array(n);
  const rows = Math.max(n, state.replay);
  if (workspace.lambda.length < rows) {
    workspace.xi = new Float64Array(rows);
    workspace.lambda = new Float64Array(rows);
    workspace.rowScale = new Float64Array(rows);
  }
  if (workspace.siteXi.length < n) workspace.siteXi = new Float64Array(n);
  const ySigned = signedLabels(batch, workspace.labels);
  const { dim: d, prior, fixedAlpha } = state;
  const t = state.dataShift;
  for (let r = 0; r < n; r++) {
    const scale = 0.5 * (weights === undefined ? 1 : weights[r]) * ySigned[r];
    for (let j = 0; j < d; j++) t[j] += scale * x[r * d + j];
  }
  if (state.records === 0) state.expectedAlpha.fill(fixedAlpha ?? prior.a0 / prior.b0);
  const target = { precision: state.dataPrecision, shift: state.dataShift, labelShift: false, mean: state.replay > 0 ? state.posterior.w : undefined, rowScale: workspace.rowScale, bound: state.frozenBound };
  let bound = Number.NaN;
  let iterations = 0;
  replayJaakkolaJordanSites(state.sites, d, x, ySigned, weights, n, target, workspace.siteXi, (bx, _by, bw, bxi, bn) => {
    ({ bound, iterations } = vbLogitPasses(state, bx, bw, bxi, bn, target.bound, workspace));
  });
  state.frozenBound = target.bound;
  state.records += n;
  return { records: n, objective: bound, iterations };
}
