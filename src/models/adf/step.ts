import type { Batch } from '../../core/batch.js';
import { NumericalError } from '../../core/numerical-error.js';
import type { UpdateStats } from '../../core/online-model.js';
import { signedLabels } from '../../core/signed-labels.js';
import { axpy } from '../../linalg/axpy.js';
import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import { symmetricRank1Update } from '../../linalg/symmetric-rank1-update.js';
import { symmetricRank2Update } from '../../linalg/symmetric-rank2-update.js';
import { recordTiltedMoments } from './record-tilted-moments.js';
import { advanceRevisitCursor } from './advance-revisit-cursor.js';
import { revisitSite } from './revisit-site.js';
import type { AdfState } from './state.js';
import { takePredictedRow } from './take-predicted-row.js';
import type { AdfWorkspace } from './workspace.js';

/**
 * Absorbs one record (features `x[offset .. offset+d)`, label y (±1, or a count), likelihood tempered by
 * `weight`) by assumed density filtering (Opper 1998, eq. 8–9): f = xᵀβ has prior N(μ = xᵀw,
 * s² = xᵀVx); with α, ν of the tilted distribution, w ← w + α·Vx, V ← V − ν·(Vx)(Vx)ᵀ and
 * ln|V| ← ln|V| + ln(1 − ν·s²) (determinant lemma). With a site window the record then takes the
 * head slot with its site τ = ν/(1 − νs²), h = (α + νμ)/(1 − νs²) (the Gaussian factor that moved q),
 * and `revisits` window sites are refined ({@link revisitSite}), sweeping the slots backwards: a sweep
 * while the window fills revisits every earlier record, newest first, so sweeps double in length and the
 * oldest records, absorbed under the widest q, are refined most often. O(d²) per record and
 * revisit, nothing allocated: the first revisit's V·x is taken under the V before the record's change
 * (V′x = Vx − ν·Vx_r·(Vx_r)ᵀx) and both rank-one changes of V share one pass. When the record is the row the last prediction was made for under
 * this q (test-then-train), V·x, μ, s² and the logit's tilt are taken from it (the same numbers,
 * not recomputed). A numerical failure of the record (ν·s² ≥ 1 or a non-finite moment)
 * throws before anything is written. Returns ln Z = ln ∫ p(y | f)^weight N(f; μ, s²) df, the record's
 * log predictive probability before it was learnt (0 for weight 0).
 */
export function adfRecord(state: AdfState, x: Float64Array, offset: number, y: number, weight: number, workspace: AdfWorkspace): number {
  if (weight === 0) {
    state.records += 1;
    return 0;
  }
  const d = state.dim;
  const p = state.posterior;
  const predicted = workspace.predicted;
  const reuse = takePredictedRow(predicted, x, offset);
  const vx = reuse ? predicted.vx : workspace.vx;
  if (!reuse) gemv(p.V, d, d, x, vx, 1, 0, offset);
  const s2 = reuse ? predicted.s2 : dot(vx, x, d, 0, offset);
  const mu = reuse ? predicted.mu : dot(p.w, x, d, 0, offset);
  const moments = recordTiltedMoments(state, workspace, mu, s2, y, weight, reuse && predicted.hasTilt ? predicted.tilt : undefined);
  const shrink = 1 - moments.nu * s2;
  const sitePrecision = moments.nu / shrink;
  const siteShift = (moments.alpha + moments.nu * mu) / shrink;
  if (!Number.isFinite(moments.alpha) || !(shrink > 0) || !Number.isFinite(shrink) || !Number.isFinite(siteShift)) {
    throw new NumericalError('tilted moments of a record are not usable (1 − ν·s² must be positive and finite, and the site finite)', { value: shrink });
  }
  const sites = state.sites;
  if (sites.capacity > 0) {
    const slot = sites.head;
    for (let i = 0; i < d; i++) sites.x[slot * d + i] = x[offset + i];
    sites.y[slot] = y;
    sites.weight[slot] = weight;
    sites.precision[slot] = sitePrecision;
    sites.shift[slot] = siteShift;
    sites.head = slot + 1 === sites.capacity ? 0 : slot + 1;
    sites.written += 1;
    if (sites.count < sites.capacity) sites.count += 1;
  }
  axpy(moments.alpha, vx, p.w, d);
  p.logDetV += Math.log(shrink);
  state.records += 1;
  const logPredictive = moments.logZ;
  const nu = moments.nu;
  if (sites.revisits === 0) {
    symmetricRank1Update(p.V, d, -nu, vx);
    return logPredictive;
  }
  const siteVx = workspace.siteVx;
  const first = advanceRevisitCursor(sites) * d;
  gemv(p.V, d, d, sites.x, siteVx, 1, 0, first);
  const overlap = nu * dot(vx, sites.x, d, 0, first);
  for (let i = 0; i < d; i++) siteVx[i] -= overlap * vx[i];
  symmetricRank2Update(p.V, d, -nu, vx, revisitSite(state, sites.cursor, workspace, siteVx), siteVx);
  for (let k = 1; k < sites.revisits; k++) {
    const slot = advanceRevisitCursor(sites);
    gemv(p.V, d, d, sites.x, siteVx, 1, 0, slot * d);
    symmetricRank1Update(p.V, d, revisitSite(state, slot, workspace, siteVx), siteVx);
  }
  return logPredictive;
}

/**
 * Absorbs a checked batch record by record, in order (binary labels as ±1, counts as they are); with
 * adaptive forgetting every candidate's posterior absorbs each record (`ForgettingBank.step`).
 */
export function adfStep(state: AdfState, batch: Batch, workspace: AdfWorkspace): UpdateStats {
  if (workspace.labels.length < batch.n) workspace.labels = new Float64Array(batch.n);
  const y = state.link === 'poisson' ? batch.y : signedLabels(batch, workspace.labels);
  const d = state.dim;
  const weights = batch.weights;
  if (state.forgetting === undefined) {
    for (let r = 0; r < batch.n; r++) adfRecord(state, batch.x, r * d, y[r], weights === undefined ? 1 : weights[r], workspace);
  } else {
    state.forgetting.step(state, batch.n, (member, r) => adfRecord(member, batch.x, r * d, y[r], weights === undefined ? 1 : weights[r], workspace));
  }
  return { records: batch.n };
}
