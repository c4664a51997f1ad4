import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import type { VbLogitState } from './state.js';

/**
 * The vb-logit(-ard) snapshot (layout 1): the frozen data sums, the current q(w) and E[α] bit for bit
 * (V and V⁻¹ are not recomputed from each other), the last update's diagnostics and the settings.
 */
export function vbLogitCodec(family: string): FamilyCodec<VbLogitState> {
  return {
    version: 1,
    encode: (s) => ({
      header: { ard: s.ard, prior: { ...s.prior }, tol: s.tol, maxIter: s.maxIter, stopReason: s.stopReason, ...(s.fixedAlpha === undefined ? {} : { fixedAlpha: s.fixedAlpha }) },
      arrays: {
        dataPrecision: s.dataPrecision.slice(), dataShift: s.dataShift.slice(),
        w: s.posterior.w.slice(), V: s.posterior.V.slice(), invV: s.posterior.invV.slice(), expectedAlpha: s.expectedAlpha.slice(),
        scalars: Float64Array.of(s.frozenBound, s.records, s.posterior.logDetV, s.posterior.q, s.bound, s.iterations),
      },
    }),
    decode(snapshot) {
      const d = snapshot.dim;
      const { ard, prior, tol, maxIter, stopReason, fixedAlpha } = snapshot.header as { ard?: unknown; prior?: { a0?: unknown; b0?: unknown }; tol?: unknown; maxIter?: unknown; stopReason?: unknown; fixedAlpha?: unknown };
      if ((fixedAlpha !== undefined && typeof fixedAlpha !== 'number') || typeof ard !== 'boolean' || typeof tol !== 'number' || typeof maxIter !== 'number' || prior === undefined || typeof prior.a0 !== 'number' || typeof prior.b0 !== 'number'
        || (stopReason !== 'converged' && stopReason !== 'bound-decreased' && stopReason !== 'max-iterations')) {
        throw new SnapshotError(`${family} snapshot header is malformed`, { field: 'header' });
      }
      const a = checkSnapshot(snapshot, family, 1, { dataPrecision: d * d, dataShift: d, w: d, V: d * d, invV: d * d, expectedAlpha: ard ? d : 1, scalars: 6 });
      const sc = a.scalars;
      return {
        dim: d, ard, tol, maxIter, prior: { a0: prior.a0, b0: prior.b0 }, fixedAlpha,
        dataPrecision: a.dataPrecision.slice(), dataShift: a.dataShift.slice(), frozenBound: sc[0], records: sc[1],
        posterior: { w: a.w.slice(), V: a.V.slice(), invV: a.invV.slice(), logDetV: sc[2], q: sc[3] },
        expectedAlpha: a.expectedAlpha.slice(), bound: sc[4], iterations: sc[5], stopReason,
      };
    },
  };
}
