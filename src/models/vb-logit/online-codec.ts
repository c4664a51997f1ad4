import { checkSnapshot } from '../../core/check-snapshot.js';
import type { EncodedState, FamilyCodec } from '../../core/family-codec.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import type { SnapshotProblem } from '../../core/snapshot-problem.js';
import { snapshotChecks } from '../../core/snapshot-checks.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { addSleepingChallengers } from '../../forgetting/add-sleeping-challengers.js';
import { decodeForgettingBank } from '../../forgetting/decode-forgetting-bank.js';
import { encodeForgettingBank } from '../../forgetting/encode-forgetting-bank.js';
import { vbLogitOnlineMemberOps } from './online-member-ops.js';
import type { VbLogitOnlineState } from './online-state.js';

/** Layout 1 → 2: a model of before adaptive forgetting goes on without it, exactly as it would have. */
function addForgetting(snapshot: ModelSnapshot): ModelSnapshot {
  return { ...snapshot, version: 2, header: { ...snapshot.header, forgetting: null } };
}

/** Layout 2 → 3: an adaptive forgetting bank of before sleeping challengers restores awake, as it was. */
function addSleeping(snapshot: ModelSnapshot): ModelSnapshot {
  return addSleepingChallengers(snapshot, snapshot.arrays.scalars?.[2] ?? 0);
}

function encodeOwn(s: VbLogitOnlineState): EncodedState {
  return {
    header: { priorPrecision: s.priorPrecision, tol: s.tol, maxIter: s.maxIter },
    arrays: { w: s.posterior.w.slice(), V: s.posterior.V.slice(), invV: s.posterior.invV.slice(), scalars: Float64Array.of(s.posterior.logDetV, s.posterior.q, s.records) },
  };
}

function decodeOwn(snapshot: ModelSnapshot): VbLogitOnlineState {
  const d = snapshot.dim;
  const { priorPrecision, tol, maxIter } = snapshot.header as { priorPrecision?: unknown; tol?: unknown; maxIter?: unknown };
  if (typeof priorPrecision !== 'number' || typeof tol !== 'number' || typeof maxIter !== 'number') throw new SnapshotError('vb-logit-online snapshot header is malformed', { field: 'header' });
  const a = checkSnapshot(snapshot, 'vb-logit-online', 3, { w: d, V: d * d, invV: d * d, scalars: 3 });
  return {
    dim: d, priorPrecision, tol, maxIter, records: a.scalars[2], forgetting: undefined,
    posterior: { w: a.w.slice(), V: a.V.slice(), invV: a.invV.slice(), logDetV: a.scalars[0], q: a.scalars[1] },
  };
}

function gaussianProblem(s: VbLogitOnlineState): SnapshotProblem | undefined {
  return snapshotChecks.positiveDefinite('V', s.posterior.V, s.dim) ?? snapshotChecks.positiveDefinite('invV', s.posterior.invV, s.dim);
}

/**
 * The vb-logit-online snapshot (layout 3): w, V, V⁻¹ and the scalars, bit for bit (V and V⁻¹ are not
 * recomputed from each other), and the adaptive forgetting bank (`encodeForgettingBank`, each
 * candidate's posterior in this same layout). Layout 1 (no adaptive forgetting) restores through {@link addForgetting},
 * layout 2 (no sleeping challengers) through {@link addSleeping}.
 */
export const vbLogitOnlineCodec: FamilyCodec<VbLogitOnlineState> = {
  version: 3,
  migrations: { 1: addForgetting, 2: addSleeping },
  invariants: (s) => gaussianProblem(s) ?? s.forgetting?.members.reduce<SnapshotProblem | undefined>((problem, member) => problem ?? gaussianProblem(member), undefined),
  encode(s) {
    const mine = encodeOwn(s);
    const bank = encodeForgettingBank(s.forgetting, encodeOwn);
    return { header: { ...mine.header, ...bank.header }, arrays: { ...mine.arrays, ...bank.arrays } };
  },
  decode(snapshot) {
    const state = decodeOwn(snapshot);
    state.forgetting = decodeForgettingBank(snapshot, vbLogitOnlineMemberOps, decodeOwn, false);
    return state;
  },
};
