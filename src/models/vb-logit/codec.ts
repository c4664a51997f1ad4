import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { snapshotChecks } from '../../core/snapshot-checks.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { decodeJaakkolaJordanSites } from '../../likelihoods/decode-jaakkola-jordan-sites.js';
import { encodeJaakkolaJordanSites } from '../../likelihoods/encode-jaakkola-jordan-sites.js';
import type { VbLogitState } from './state.js';

/**
 * Layout 1 → 2: a model of before the replay froze every batch's ξ, so `replay` 0 and no replayed
 * records (it then goes on exactly as it would have).
 */
function addReplay(snapshot: ModelSnapshot): ModelSnapshot {
  return {
    ...snapshot, version: 2, header: { ...snapshot.header, replay: 0 },
    arrays: { ...snapshot.arrays, siteX: new Float64Array(0), siteY: new Float64Array(0), siteWeights: new Float64Array(0), siteXi: new Float64Array(0) },
  };
}

/**
 * The vb-logit(-ard) snapshot (layout 2): the frozen data sums, the replayed records with their ξ, the
 * current q(w) and E[α] bit for bit (V and V⁻¹ are not recomputed from each other), the last update's
 * diagnostics and the settings. Layout 1 (no replay) restores through {@link addReplay}.
 */
export function vbLogitCodec(family: string): FamilyCodec<VbLogitState> {
  return {
    version: 2,
    migrations: { 1: addReplay },
    notYetComputed: { scalars: [4] },
    invariants: (s) => snapshotChecks.positiveDefinite('V', s.posterior.V, s.dim) ?? snapshotChecks.positiveDefinite('invV', s.posterior.invV, s.dim)
      ?? snapshotChecks.positive('expectedAlpha', s.expectedAlpha),
    encode: (s) => ({
      header: { ard: s.ard, prior: { ...s.prior }, tol: s.tol, maxIter: s.maxIter, replay: s.replay, stopReason: s.stopReason, ...(s.fixedAlpha === undefined ? {} : { fixedAlpha: s.fixedAlpha }) },
      arrays: {
        dataPrecision: s.dataPrecision.slice(), dataShift: s.dataShift.slice(), ...encodeJaakkolaJordanSites(s.sites, s.dim),
        w: s.posterior.w.slice(), V: s.posterior.V.slice(), invV: s.posterior.invV.slice(), expectedAlpha: s.expectedAlpha.slice(),
        scalars: Float64Array.of(s.frozenBound, s.records, s.posterior.logDetV, s.posterior.q, s.bound, s.iterations),
      },
    }),
    decode(snapshot) {
      const d = snapshot.dim;
      const { ard, prior, tol, maxIter, replay, stopReason, fixedAlpha } = snapshot.header as {
        ard?: unknown; prior?: { a0?: unknown; b0?: unknown }; tol?: unknown; maxIter?: unknown; replay?: unknown; stopReason?: unknown; fixedAlpha?: unknown;
      };
      if ((fixedAlpha !== undefined && typeof fixedAlpha !== 'number') || typeof ard !== 'boolean' || typeof tol !== 'number' || typeof maxIter !== 'number' || prior === undefined || typeof prior.a0 !== 'number' || typeof prior.b0 !== 'number'
        || typeof replay !== 'number' || !Number.isSafeInteger(replay) || replay < 0
        || (stopReason !== 'converged' && stopReason !== 'bound-decreased' && stopReason !== 'max-iterations')) {
        throw new SnapshotError(`${family} snapshot header is malformed`, { field: 'header' });
      }
      const a = checkSnapshot(snapshot, family, 2, { dataPrecision: d * d, dataShift: d, w: d, V: d * d, invV: d * d, expectedAlpha: ard ? d : 1, scalars: 6 });
      const sc = a.scalars;
      return {
        dim: d, ard, tol, maxIter, replay, prior: { a0: prior.a0, b0: prior.b0 }, fixedAlpha,
        dataPrecision: a.dataPrecision.slice(), dataShift: a.dataShift.slice(), frozenBound: sc[0], sites: decodeJaakkolaJordanSites(snapshot, replay, sc[1]), records: sc[1],
        posterior: { w: a.w.slice(), V: a.V.slice(), invV: a.invV.slice(), logDetV: sc[2], q: sc[3] },
        expectedAlpha: a.expectedAlpha.slice(), bound: sc[4], iterations: sc[5], stopReason,
      };
    },
  };
}
