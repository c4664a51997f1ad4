import { checkSnapshot } from '../../core/check-snapshot.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import type { VbLogitOnlineState } from './online-state.js';

/** Layout version of the vb-logit-online snapshot. */
export const VB_LOGIT_ONLINE_SNAPSHOT_VERSION = 1;

/** Snapshot of w, V, V⁻¹ and the scalars, bit for bit (V and V⁻¹ are not recomputed from each other). */
export function encodeVbLogitOnline(family: string, s: VbLogitOnlineState): ModelSnapshot {
  return {
    family,
    version: VB_LOGIT_ONLINE_SNAPSHOT_VERSION,
    dim: s.dim,
    header: { priorPrecision: s.priorPrecision, tol: s.tol, maxIter: s.maxIter },
    arrays: { w: s.posterior.w.slice(), V: s.posterior.V.slice(), invV: s.posterior.invV.slice(), scalars: Float64Array.of(s.posterior.logdetV, s.posterior.q, s.records) },
  };
}

/** Rebuilds the state from {@link encodeVbLogitOnline}'s snapshot, refusing foreign or malformed ones. */
export function decodeVbLogitOnline(family: string, snapshot: ModelSnapshot): VbLogitOnlineState {
  const d = snapshot.dim;
  const { priorPrecision, tol, maxIter } = snapshot.header as { priorPrecision?: unknown; tol?: unknown; maxIter?: unknown };
  if (typeof priorPrecision !== 'number' || typeof tol !== 'number' || typeof maxIter !== 'number') throw new SnapshotError(`${family} snapshot header is malformed`, { field: 'header' });
  const a = checkSnapshot(snapshot, family, VB_LOGIT_ONLINE_SNAPSHOT_VERSION, { w: d, V: d * d, invV: d * d, scalars: 3 });
  return {
    dim: d, priorPrecision, tol, maxIter, records: a.scalars[2],
    posterior: { w: a.w.slice(), V: a.V.slice(), invV: a.invV.slice(), logdetV: a.scalars[0], q: a.scalars[1] },
  };
}
