import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import type { VbLinearState } from './state.js';

/**
 * The vb-linear snapshot (layout 1): the sufficient statistics and the settings; the fit is
 * recomputed from them, deterministically. A finite ARD `pruneThreshold` is in the header; its
 * absence (snapshots from before pruning, or pruning off) means Infinity.
 */
export function vbLinearCodec(family: string): FamilyCodec<VbLinearState> {
  return {
    version: 1,
    encode: (state) => ({
      header: { ard: state.ard, prior: { ...state.prior }, tol: state.tol, maxIter: state.maxIter, ...(Number.isFinite(state.pruneThreshold) ? { pruneThreshold: state.pruneThreshold } : {}) },
      arrays: { xtx: state.xtx.slice(), xty: state.xty.slice(), scalars: Float64Array.of(state.yty, state.n, state.records) },
    }),
    decode(snapshot) {
      const d = snapshot.dim;
      const arrays = checkSnapshot(snapshot, family, 1, { xtx: d * d, xty: d, scalars: 3 });
      const { ard, prior, tol, maxIter, pruneThreshold } = snapshot.header as { ard?: unknown; prior?: { a0?: unknown; b0?: unknown; c0?: unknown; d0?: unknown }; tol?: unknown; maxIter?: unknown; pruneThreshold?: unknown };
      if (typeof ard !== 'boolean' || typeof tol !== 'number' || typeof maxIter !== 'number' || prior === undefined
        || (pruneThreshold !== undefined && (!ard || typeof pruneThreshold !== 'number' || !(pruneThreshold > 0)))
        || typeof prior.a0 !== 'number' || typeof prior.b0 !== 'number' || typeof prior.c0 !== 'number' || typeof prior.d0 !== 'number') {
        throw new SnapshotError(`${family} snapshot header is malformed`, { field: 'header' });
      }
      const scalars = arrays.scalars;
      return {
        dim: d, ard, tol, maxIter, pruneThreshold: typeof pruneThreshold === 'number' ? pruneThreshold : Infinity, prior: { a0: prior.a0, b0: prior.b0, c0: prior.c0, d0: prior.d0 },
        xtx: arrays.xtx.slice(), xty: arrays.xty.slice(), yty: scalars[0], n: scalars[1], records: scalars[2],
      };
    },
  };
}
