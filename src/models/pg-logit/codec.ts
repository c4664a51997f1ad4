import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
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
 * The pg-logit snapshot (layout 2): the prior (μ₀, Σ₀, Σ₀⁻¹, Σ₀⁻¹μ₀, ln|Σ₀⁻¹|), the natural
 * parameters, their factor, μ and the counters, bit for bit.
 */
export const pgLogitCodec: FamilyCodec<PgLogitState> = {
  version: 2,
  encode(s) {
    const { mode, tol, relativeTol, maxIter, tau, kappa, effectiveSize } = s.settings;
    return {
      header: { mode, tol, relativeTol, maxIter, tau, kappa, effectiveSize: Number.isNaN(effectiveSize) ? null : effectiveSize },
      arrays: {
        priorMean: s.prior.mean.slice(), priorCovariance: s.prior.covariance.slice(), priorPrecision: s.prior.precision.slice(), priorShift: s.prior.shift.slice(),
        shift: s.shift.slice(), precision: s.precision.slice(), factor: s.factor.slice(), mean: s.mean.slice(),
        scalars: Float64Array.of(s.prior.logdetPrecision, s.step, s.records, s.elbo, s.iterations),
      },
    };
  },
  decode(snapshot) {
    const d = snapshot.dim;
    const a = checkSnapshot(snapshot, FAMILY, 2, {
      priorMean: d, priorCovariance: d * d, priorPrecision: d * d, priorShift: d, shift: d, precision: d * d, factor: d * d, mean: d, scalars: 5,
    });
    const h = snapshot.header as { [key: string]: unknown };
    const numeric = ['tol', 'maxIter', 'tau', 'kappa'].every((k) => typeof h[k] === 'number');
    if (!numeric || (h.mode !== 'svi' && h.mode !== 'sda') || typeof h.relativeTol !== 'boolean' || !(h.effectiveSize === null || typeof h.effectiveSize === 'number')) {
      throw new SnapshotError('pg-logit snapshot header is malformed', { field: 'header' });
    }
    const sc = a.scalars;
    return {
      dim: d,
      prior: { mean: a.priorMean.slice(), covariance: a.priorCovariance.slice(), precision: a.priorPrecision.slice(), shift: a.priorShift.slice(), logdetPrecision: sc[0] },
      settings: {
        mode: h.mode, tol: h.tol as number, relativeTol: h.relativeTol, maxIter: h.maxIter as number, tau: h.tau as number, kappa: h.kappa as number,
        effectiveSize: h.effectiveSize === null ? Number.NaN : h.effectiveSize,
      },
      shift: a.shift.slice(), precision: a.precision.slice(), factor: a.factor.slice(), mean: a.mean.slice(),
      step: sc[1], records: sc[2], elbo: sc[3], iterations: sc[4],
    };
  },
  migrations: { 1: addPriorCovariance },
};
