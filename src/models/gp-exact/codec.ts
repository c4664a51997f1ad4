import { checkSnapshot } from '../../core/check-snapshot.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import type { GpExactState } from './state.js';

/** Layout version of the gp-exact snapshot. */
export const GP_EXACT_SNAPSHOT_VERSION = 1;

/** Snapshot of the records, hyperparameters and settings. */
export function encodeGpExact(s: GpExactState): ModelSnapshot {
  return {
    family: 'gp-exact', version: GP_EXACT_SNAPSHOT_VERSION, dim: s.dim,
    header: { ard: s.ard, fixedKernel: s.fixedKernel, fixedNoise: s.fixedNoise, maxIterations: s.maxIterations, records: s.records },
    arrays: { params: s.params.slice(), x: s.x.slice(), y: s.y.slice(), logMarginal: Float64Array.of(s.logMarginal) },
  };
}

/** Rebuilds the state from {@link encodeGpExact}'s snapshot, refusing foreign or malformed ones. */
export function decodeGpExact(snapshot: ModelSnapshot): GpExactState {
  const h = snapshot.header as { ard?: unknown; fixedKernel?: unknown; fixedNoise?: unknown; maxIterations?: unknown; records?: unknown };
  if (typeof h.ard !== 'boolean' || typeof h.fixedKernel !== 'boolean' || typeof h.fixedNoise !== 'boolean' || typeof h.maxIterations !== 'number' || typeof h.records !== 'number') {
    throw new SnapshotError('gp-exact snapshot header is malformed', { field: 'header' });
  }
  const d = snapshot.dim;
  const a = checkSnapshot(snapshot, 'gp-exact', GP_EXACT_SNAPSHOT_VERSION, { params: 2 + (h.ard ? d : 1), x: h.records * d, y: h.records, logMarginal: 1 });
  return {
    dim: d, ard: h.ard, fixedKernel: h.fixedKernel, fixedNoise: h.fixedNoise, maxIterations: h.maxIterations,
    params: a.params.slice(), x: a.x.slice(), y: a.y.slice(), records: h.records, logMarginal: a.logMarginal[0],
  };
}
