import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { signedLabels } from '../../core/signed-labels.js';
import { gemv } from '../../linalg/gemv.js';
import { symmetricRank1Update } from '../../linalg/symmetric-rank1-update.js';
import { symmetricRank2Update } from '../../linalg/symmetric-rank2-update.js';
import { advanceRevisitCursor } from './advance-revisit-cursor.js';
import { planAdfRecord } from './plan-adf-record.js';
import { revisitSite } from './revisit-site.js';
import type { AdfState } from './state.js';
import type { AdfWorkspace } from './workspace.js';

/** The stats of a one-record update (shared: nothing allocated per record). */
const ONE_RECORD: UpdateStats = Object.freeze({ records: 1 });

/**
 * Takes the shell's backup now unless the record about to be written ({@link planAdfRecord}) leaves a
 * finite state and the forgetting bank, if any, only counts it (see `ForgettingBank.quietFor`):
 * then nothing after the first write can fail and the step needs no backup.
 */
function settleBackup(state: AdfState, workspace: AdfWorkspace, logPredictive: number, finite: boolean): void {
  const backup = workspace.backup;
  if (backup === undefined) return;
  workspace.backup = undefined;
  if (!finite || !(state.forgetting?.quietFor(logPredictive) ?? true)) backup();
}

/**
 * Absorbs one record (features `x[offset .. offset+d)`, label y (±1, or a count), likelihood tempered by
 * `weight`) by assumed density filtering: the change is planned first ({@link planAdfRecord}, which
 * throws before anything is written when the record's moments are not usable), then written: the
 * record takes the window's head slot with its site, w and ln|V| take the planned values, and both
 * rank-one changes of V (the record's and the first revisit's) share one pass. Further revisits
 * ({@link revisitSite}) sweep the slots backwards: a sweep while the window fills revisits every
 * earlier record, newest first, so sweeps double in length and the oldest records, absorbed under the
 * widest q, are refined most often. O(d²) per record and revisit, nothing allocated. Returns
 * ln Z = ln ∫ p(y | f)^weight N(f; μ, s²) df, the record's log predictive probability before it was
 * learnt (0 for weight 0).
 */
export function adfRecord(state: AdfState, x: Float64Array, offset: number, y: number, weight: number, workspace: AdfWorkspace): number {
  if (weight === 0) {
    settleBackup(state, workspace, 0, true);
    state.records += 1;
    return 0;
  }
  const plan = planAdfRecord(state, x, offset, y, weight, workspace);
  settleBackup(state, workspace, plan.logPredictive, plan.finite);
  const d = state.dim;
  const p = state.posterior;
  const sites = state.sites;
  if (sites.capacity > 0) {
    const slot = sites.head;
    for (let i = 0; i < d; i++) sites.x[slot * d + i] = x[offset + i];
    sites.y[slot] = y;
    sites.weight[slot] = weight;
    sites.precision[slot] = plan.sitePrecision;
    sites.shift[slot] = plan.siteShift;
    sites.head = slot + 1 === sites.capacity ? 0 : slot + 1;
    sites.written += 1;
    if (sites.count < sites.capacity) sites.count += 1;
  }
  for (let i = 0; i < d; i++) p.w[i] = plan.w[i];
  p.logDetV = plan.logDetV;
  state.records += 1;
  if (sites.revisits === 0) {
    symmetricRank1Update(p.V, d, -plan.nu, plan.vx);
    return plan.logPredictive;
  }
  const revisited = plan.revisitSlot;
  sites.cursor = revisited;
  if (plan.revisited) {
    sites.precision[revisited] = plan.revisit.precision;
    sites.shift[revisited] = plan.revisit.shift;
  }
  const siteVx = workspace.siteVx;
  symmetricRank2Update(p.V, d, -plan.nu, plan.vx, plan.revisited ? plan.revisit.coefficient : 0, siteVx);
  for (let k = 1; k < sites.revisits; k++) {
    const slot = advanceRevisitCursor(sites);
    gemv(p.V, d, d, sites.x, siteVx, 1, 0, slot * d);
    symmetricRank1Update(p.V, d, revisitSite(state, slot, workspace, siteVx), siteVx);
  }
  return plan.logPredictive;
}

/** Absorbs record r of the batch the bank is feeding (`workspace.batch`) into a member state: the bank's callback, one function for every model. */
function feedRecord(member: AdfState, r: number, workspace: AdfWorkspace): number {
  const fed = workspace.batch as Batch;
  return adfRecord(member, fed.x, r * member.dim, workspace.batchLabels[r], fed.weights === undefined ? 1 : fed.weights[r], workspace);
}

/**
 * Absorbs a checked batch record by record, in order (binary labels as ±1, counts as they are); with
 * adaptive forgetting every candidate's posterior absorbs each record (`ForgettingBank.step`). Given
 * the shell's `backup`, a single record with at most one revisit takes it only when its plan says a
 * failure could follow the first write ({@link adfRecord}); any other batch takes it first.
 */
export function adfStep(state: AdfState, batch: Batch, workspace: AdfWorkspace, backup?: () => void): UpdateStats {
  if (backup !== undefined) {
    if (batch.n === 1 && state.sites.revisits <= 1) workspace.backup = backup;
    else backup();
  }
  if (workspace.labels.length < batch.n) workspace.labels = new Float64Array(batch.n);
  const y = state.link === 'poisson' ? batch.y : signedLabels(batch, workspace.labels);
  const d = state.dim;
  const weights = batch.weights;
  if (state.forgetting === undefined) {
    for (let r = 0; r < batch.n; r++) adfRecord(state, batch.x, r * d, y[r], weights === undefined ? 1 : weights[r], workspace);
  } else {
    workspace.batch = batch;
    workspace.batchLabels = y;
    state.forgetting.step(state, batch.n, feedRecord, workspace);
    workspace.batch = undefined;
  }
  return batch.n === 1 ? ONE_RECORD : { records: batch.n };
}
