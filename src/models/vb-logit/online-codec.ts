import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import { snapshotChecks } from '../../core/snapshot-checks.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import type { VbLogitOnlineState } from './online-state.js';

/** The vb-logit-online snapshot (layout 1): w, V, V⁻¹ and the scalars, bit for bit (V and V⁻¹ are not recomputed from each other). */
export const vbLogitOnlineCodec: FamilyCodec<VbLogitOnlineState> = {
  version: 1,
  invariants: (s) => snapshotChecks.positiveDefinite('V', s.posterior.V, s.dim) ?? snapshotChecks.positiveDefinite('invV', s.posterior.invV, s.dim),
  encode: (s) => ({
    header: { priorPrecision: s.priorPrecision, tol: s.tol, maxIter: s.maxIter },
    arrays: { w: s.posterior.w.slice(), V: s.posterior.V.slice(), invV: s.posterior.invV.slice(), scalars: Float64Array.of(s.posterior.logDetV, s.posterior.q, s.records) },
  }),
  decode(snapshot) {
    const d = snapshot.dim;
    const { priorPrecision, tol, maxIter } = snapshot.header as { priorPrecision?: unknown; tol?: unknown; maxIter?: unknown };
    if (typeof priorPrecision !== 'number' || typeof tol !== 'number' || typeof maxIter !== 'number') throw new SnapshotError('vb-logit-online snapshot header is malformed', { field: 'header' });
    const a = checkSnapshot(snapshot, 'vb-logit-online', 1, { w: d, V: d * d, invV: d * d, scalars: 3 });
    return {
      dim: d, priorPrecision, tol, maxIter, records: a.scalars[2],
      posterior: { w: a.w.slice(), V: a.V.slice(), invV: a.invV.slice(), logDetV: a.scalars[0], q: a.scalars[1] },
    };
  },
};
