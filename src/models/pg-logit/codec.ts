import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { snapshotChecks } from '../../core/snapshot-checks.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { decodeJaakkolaJordanSites } from '../../likelihoods/decode-jaakkola-jordan-sites.js';
import { encodeJaakkolaJordanSites } from '../../likelihoods/encode-jaakkola-jordan-sites.js';
import { spdInverse } from '../../linalg/spd-inverse.js';
import type { PgLogitState } from './state.js';

const FAMILY = 'pg-logit';

/**
 * Layout 1 → 2: layout 2 adds the prior covariance Σ₀ (so `emptyLike` rebuilds the prior bit for
 * bit); a layout-1 snapshot kept only Σ₀⁻¹, so Σ₀ is recovered by inverting it (to round-off).
 */
function addPriorCovariance(snapshot: ModelSnapshot): ModelSnapshot {
  const d = snapshot.dim;
  const precision = snapshot.arrays.priorPrecision;
  if (precision === undefined || precision.length !== d * d) throw new SnapshotError(`layout-1 ${FAMILY} snapshot needs a ${d}×${d} priorPrecision`, { field: 'priorPrecision' });
  const priorCovariance = new Float64Array(d * d);
  spdInverse(precision, d, priorCovariance, new Float64Array(d * d), { what: 'prior precision', maxTries: 0 });
  return { ...snapshot, version: 2, arrays: { ...snapshot.arrays, priorCovariance } };
}

/**
 * Layout 2 → 3: a model of before the replay streamed with none, so `replay` 0, the base = the stored
 * q and no replayed records (it then goes on exactly as it would have).
 */
function addReplay(snapshot: ModelSnapshot): ModelSnapshot {
  const { shift, precision } = snapshot.arrays;
  return {
    ...snapshot, version: 3, header: { ...snapshot.header, replay: 0 },
    arrays: {
      ...snapshot.arrays, ...(shift === undefined ? {} : { baseShift: shift }), ...(precision === undefined ? {} : { basePrecision: precision }),
      siteX: new Float64Array(0), siteY: new Float64Array(0), siteWeights: new Float64Array(0), siteXi: new Float64Array(0),
    },
  };
}

/**
 * The pg-logit snapshot (layout 3): the prior (μ₀, Σ₀, Σ₀⁻¹, Σ₀⁻¹μ₀, ln|Σ₀⁻¹|), the natural
 * parameters, their factor, μ, the `sda` replay (the base natural parameters and the replayed records
 * with their ξ) and the counters, bit for bit. Layouts 1 and 2 restore through {@link addPriorCovariance} and {@link addReplay}.
 */
export const pgLogitCodec: FamilyCodec<PgLogitState> = {
  version: 3,
  notYetComputed: { scalars: [3] },
  invariants: (s) => snapshotChecks.positiveDefinite('priorCovariance', s.prior.covariance, s.dim) ?? snapshotChecks.positiveDefinite('priorPrecision', s.prior.precision, s.dim)
    ?? snapshotChecks.positiveDefinite('precision', s.precision, s.dim) ?? snapshotChecks.positiveDefinite('basePrecision', s.basePrecision, s.dim)
    ?? snapshotChecks.positiveDiagonal('factor', s.factor, s.dim),
  encode(s) {
    const { mode, tol, relativeTol, maxIter, tau, kappa, effectiveSize, replay } = s.settings;
    return {
      header: { mode, tol, relativeTol, maxIter, tau, kappa, effectiveSize: Number.isNaN(effectiveSize) ? null : effectiveSize, replay },
      arrays: {
        priorMean: s.prior.mean.slice(), priorCovariance: s.prior.covariance.slice(), priorPrecision: s.prior.precision.slice(), priorShift: s.prior.shift.slice(),
        shift: s.shift.slice(), precision: s.precision.slice(), factor: s.factor.slice(), mean: s.mean.slice(),
        baseShift: s.baseShift.slice(), basePrecision: s.basePrecision.slice(), ...encodeJaakkolaJordanSites(s.sites, s.dim),
        scalars: Float64Array.of(s.prior.logdetPrecision, s.step, s.records, s.elbo, s.iterations),
      },
    };
  },
  decode(snapshot) {
    const d = snapshot.dim;
    const a = checkSnapshot(snapshot, FAMILY, 3, {
      priorMean: d, priorCovariance: d * d, priorPrecision: d * d, priorShift: d, shift: d, precision: d * d, factor: d * d, mean: d,
      baseShift: d, basePrecision: d * d, scalars: 5,
    });
    const h = snapshot.header as { [key: string]: unknown };
    const numeric = ['tol', 'maxIter', 'tau', 'kappa', 'replay'].every((k) => typeof h[k] === 'number');
    if (!numeric || (h.mode !== 'svi' && h.mode !== 'sda') || typeof h.relativeTol !== 'boolean' || !(h.effectiveSize === null || typeof h.effectiveSize === 'number')
      || !Number.isSafeInteger(h.replay) || (h.replay as number) < 0 || (h.mode === 'svi' && h.replay !== 0)) {
      throw new SnapshotError('pg-logit snapshot header is malformed', { field: 'header' });
    }
    const sc = a.scalars;
    return {
      dim: d,
      prior: { mean: a.priorMean.slice(), covariance: a.priorCovariance.slice(), precision: a.priorPrecision.slice(), shift: a.priorShift.slice(), logdetPrecision: sc[0] },
      settings: {
        mode: h.mode, tol: h.tol as number, relativeTol: h.relativeTol, maxIter: h.maxIter as number, tau: h.tau as number, kappa: h.kappa as number,
        effectiveSize: h.effectiveSize === null ? Number.NaN : h.effectiveSize, replay: h.replay as number,
      },
      shift: a.shift.slice(), precision: a.precision.slice(), factor: a.factor.slice(), mean: a.mean.slice(),
      baseShift: a.baseShift.slice(), basePrecision: a.basePrecision.slice(), sites: decodeJaakkolaJordanSites(snapshot, h.replay as number, sc[2]),
      step: sc[1], records: sc[2], elbo: sc[3], iterations: sc[4],
    };
  },
  migrations: { 1: addPriorCovariance, 2: addReplay },
};
