import { checkSnapshot } from '../../core/check-snapshot.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import type { PgLogitState } from './state.js';

/** Family id and snapshot layout version of `pg-logit`. */
export const PG_LOGIT_FAMILY = 'pg-logit';
export const PG_LOGIT_SNAPSHOT_VERSION = 1;

/** Snapshot of the prior, the natural parameters, their factor, μ and the counters, bit for bit. */
export function encodePgLogit(s: PgLogitState): ModelSnapshot {
  const { mode, tol, relativeTol, maxIter, tau, kappa, effectiveSize } = s.settings;
  return {
    family: PG_LOGIT_FAMILY,
    version: PG_LOGIT_SNAPSHOT_VERSION,
    dim: s.dim,
    header: { mode, tol, relativeTol, maxIter, tau, kappa, effectiveSize: Number.isNaN(effectiveSize) ? null : effectiveSize },
    arrays: {
      priorMean: s.prior.mean.slice(), priorPrecision: s.prior.precision.slice(), priorShift: s.prior.shift.slice(),
      shift: s.shift.slice(), precision: s.precision.slice(), factor: s.factor.slice(), mean: s.mean.slice(),
      scalars: Float64Array.of(s.prior.logdetPrecision, s.step, s.records, s.elbo, s.iterations),
    },
  };
}

/** Rebuilds the state from {@link encodePgLogit}'s snapshot, refusing foreign or malformed ones. */
export function decodePgLogit(snapshot: ModelSnapshot): PgLogitState {
  const d = snapshot.dim;
  const a = checkSnapshot(snapshot, PG_LOGIT_FAMILY, PG_LOGIT_SNAPSHOT_VERSION, {
    priorMean: d, priorPrecision: d * d, priorShift: d, shift: d, precision: d * d, factor: d * d, mean: d, scalars: 5,
  });
  const h = snapshot.header as { [key: string]: unknown };
  const numeric = ['tol', 'maxIter', 'tau', 'kappa'].every((k) => typeof h[k] === 'number');
  if (!numeric || (h.mode !== 'svi' && h.mode !== 'sda') || typeof h.relativeTol !== 'boolean' || !(h.effectiveSize === null || typeof h.effectiveSize === 'number')) {
    throw new SnapshotError('pg-logit snapshot header is malformed', { field: 'header' });
  }
  const sc = a.scalars;
  return {
    dim: d,
    prior: { mean: a.priorMean.slice(), precision: a.priorPrecision.slice(), shift: a.priorShift.slice(), logdetPrecision: sc[0] },
    settings: {
      mode: h.mode, tol: h.tol as number, relativeTol: h.relativeTol, maxIter: h.maxIter as number, tau: h.tau as number, kappa: h.kappa as number,
      effectiveSize: h.effectiveSize === null ? Number.NaN : h.effectiveSize,
    },
    shift: a.shift.slice(), precision: a.precision.slice(), factor: a.factor.slice(), mean: a.mean.slice(),
    step: sc[1], records: sc[2], elbo: sc[3], iterations: sc[4],
  };
}
