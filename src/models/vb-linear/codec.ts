import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { snapshotChecks } from '../../core/snapshot-checks.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { refitVbLinear } from './refit.js';
import { VB_LINEAR_DEFAULT_REFIT_FRACTION, type VbLinearState } from './state.js';

const STOP_REASONS = ['converged', 'bound-decreased', 'max-iterations'] as const;

/**
 * The vb-linear snapshot (layout 2): the sufficient statistics, the settings and the posterior
 * (w_N, V_N, ln|V_N|, a_N, b_N, the E[α] held, the pruned weights, the last refit's passes and stop
 * reason, whether the next refit is warm, the records since the last refit), so a restored model
 * continues bit for bit. A finite ARD `pruneThreshold` is in the header; its absence means Infinity.
 * Layout 1 (statistics only; the fit was recomputed on read) is migrated by the fit from scratch
 * that a layout-1 model made when restored.
 */
export function vbLinearCodec(family: string): FamilyCodec<VbLinearState> {
  return {
    version: 2,
    encode: (state) => ({
      header: {
        ard: state.ard, prior: { ...state.prior }, tol: state.tol, maxIter: state.maxIter, ...(Number.isFinite(state.pruneThreshold) ? { pruneThreshold: state.pruneThreshold } : {}),
        refitFraction: state.refitFraction, iterations: state.iterations, stopReason: state.stopReason, warm: state.warm,
      },
      arrays: {
        xtx: state.xtx.slice(), xty: state.xty.slice(), scalars: Float64Array.of(state.yty, state.n, state.records, state.logDetV, state.an, state.bn, state.sinceRefit),
        w: state.w.slice(), V: state.V.slice(), alpha: state.alpha.slice(), pruned: state.pruned.slice(),
      },
    }),
    decode(snapshot) {
      const d = snapshot.dim;
      const ard = snapshot.header.ard === true;
      const arrays = checkSnapshot(snapshot, family, 2, { xtx: d * d, xty: d, scalars: 7, w: d, V: d * d, alpha: ard ? d : 1, pruned: d });
      const { refitFraction, iterations, stopReason, warm } = snapshot.header as { refitFraction?: unknown; iterations?: unknown; stopReason?: unknown; warm?: unknown };
      if (typeof refitFraction !== 'number' || !(refitFraction >= 0) || typeof iterations !== 'number' || typeof warm !== 'boolean'
        || !STOP_REASONS.includes(stopReason as (typeof STOP_REASONS)[number])) {
        throw new SnapshotError(`${family} snapshot header is malformed`, { field: 'header' });
      }
      const s = arrays.scalars;
      return {
        ...settingsOf(snapshot, family), dim: d,
        xtx: arrays.xtx.slice(), xty: arrays.xty.slice(), yty: s[0], n: s[1], records: s[2],
        refitFraction, w: arrays.w.slice(), V: arrays.V.slice(), logDetV: s[3], an: s[4], bn: s[5],
        alpha: arrays.alpha.slice(), pruned: arrays.pruned.slice(),
        iterations, stopReason: stopReason as VbLinearState['stopReason'], warm, sinceRefit: s[6],
      };
    },
    migrations: { 1: (snapshot) => fromLayout1(snapshot, family) },
    invariants: (s) => snapshotChecks.positiveDefinite('V', s.V, s.dim, { triangle: 'upper', keep: (i) => s.pruned[i] === 0 }) ?? snapshotChecks.positive('alpha', s.alpha)
      ?? snapshotChecks.positive('an', s.an) ?? snapshotChecks.positive('bn', s.bn) ?? snapshotChecks.nonNegative('n', s.n),
  };
}

/** The settings in a snapshot header (layouts 1 and 2). */
function settingsOf(snapshot: ModelSnapshot, family: string): Pick<VbLinearState, 'ard' | 'prior' | 'tol' | 'maxIter' | 'pruneThreshold'> {
  const { ard, prior, tol, maxIter, pruneThreshold } = snapshot.header as { ard?: unknown; prior?: { a0?: unknown; b0?: unknown; c0?: unknown; d0?: unknown }; tol?: unknown; maxIter?: unknown; pruneThreshold?: unknown };
  if (typeof ard !== 'boolean' || typeof tol !== 'number' || typeof maxIter !== 'number' || prior === undefined
    || (pruneThreshold !== undefined && (!ard || typeof pruneThreshold !== 'number' || !(pruneThreshold > 0)))
    || typeof prior.a0 !== 'number' || typeof prior.b0 !== 'number' || typeof prior.c0 !== 'number' || typeof prior.d0 !== 'number') {
    throw new SnapshotError(`${family} snapshot header is malformed`, { field: 'header' });
  }
  return { ard, tol, maxIter, pruneThreshold: typeof pruneThreshold === 'number' ? pruneThreshold : Infinity, prior: { a0: prior.a0, b0: prior.b0, c0: prior.c0, d0: prior.d0 } };
}

/** Layout 1 → 2: the statistics and settings, the default refit schedule, and the fit from scratch. */
function fromLayout1(snapshot: ModelSnapshot, family: string): ModelSnapshot {
  const d = snapshot.dim;
  const arrays = checkSnapshot(snapshot, family, 1, { xtx: d * d, xty: d, scalars: 3 });
  const settings = settingsOf(snapshot, family);
  const state: VbLinearState = {
    ...settings, dim: d, xtx: arrays.xtx.slice(), xty: arrays.xty.slice(), yty: arrays.scalars[0], n: arrays.scalars[1], records: arrays.scalars[2],
    refitFraction: VB_LINEAR_DEFAULT_REFIT_FRACTION, w: new Float64Array(d), V: new Float64Array(d * d), logDetV: 0, an: 0, bn: 0,
    alpha: new Float64Array(settings.ard ? d : 1), pruned: new Float64Array(d), iterations: 0, stopReason: 'converged', warm: false, sinceRefit: 0,
  };
  refitVbLinear(state);
  return { ...snapshot, version: 2, ...vbLinearCodec(family).encode(state) };
}
