import { checkSnapshot } from '../../core/check-snapshot.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { packedLength } from './objective.js';
import type { ViPerSettings, ViPerState } from './state.js';

/** Layout version of the vi-per snapshot. */
export const VI_PER_SNAPSHOT_VERSION = 1;

/** Snapshot of q(β), the prior, the settings and the SVI optimiser / generator state. */
export function encodeViPer(family: string, s: ViPerState): ModelSnapshot {
  return {
    family,
    version: VI_PER_SNAPSHOT_VERSION,
    dim: s.dim,
    header: { settings: { ...s.settings } },
    arrays: {
      priorMean: s.priorMean.slice(), priorFactor: s.priorFactor.slice(), mu: s.mu.slice(), factor: s.factor.slice(),
      adam: s.adam.slice(), rng: s.rng.slice(), scalars: Float64Array.of(s.records, s.objective, s.iterations),
    },
  };
}

const SETTING_TYPES: { readonly [key in keyof ViPerSettings]: 'string' | 'number' } = {
  covariance: 'string', method: 'string', l: 'number', points: 'number', samples: 'number', seed: 'number', tol: 'number',
  maxIter: 'number', streaming: 'string', learningRate: 'number', stepsPerBatch: 'number', dataSize: 'number',
};

/** Rebuilds the state from {@link encodeViPer}'s snapshot, refusing foreign or malformed ones. */
export function decodeViPer(family: string, snapshot: ModelSnapshot): ViPerState {
  const a = checkSnapshot(snapshot, family, VI_PER_SNAPSHOT_VERSION, { priorMean: snapshot.dim, priorFactor: snapshot.dim ** 2, mu: snapshot.dim, factor: snapshot.dim ** 2, scalars: 3 });
  const d = snapshot.dim;
  const settings = (snapshot.header as { settings?: { [key: string]: unknown } }).settings;
  if (settings === undefined || typeof settings !== 'object' || settings === null
    || Object.entries(SETTING_TYPES).some(([key, type]) => typeof settings[key] !== type)
    || (settings.covariance !== 'full' && settings.covariance !== 'diagonal')) {
    throw new SnapshotError(`${family} snapshot header is malformed`, { field: 'header.settings' });
  }
  const adamLength = 5 + 2 * packedLength(d, settings.covariance);
  if (a.adam === undefined || (a.adam.length !== 0 && a.adam.length !== adamLength)) throw new SnapshotError(`snapshot array "adam" must hold 0 or ${adamLength} values`, { field: 'adam', value: a.adam?.length });
  if (a.rng === undefined || (a.rng.length !== 0 && a.rng.length !== 7)) throw new SnapshotError('snapshot array "rng" must hold 0 or 7 values', { field: 'rng', value: a.rng?.length });
  return {
    dim: d, settings: { ...(settings as unknown as ViPerSettings) },
    priorMean: a.priorMean.slice(), priorFactor: a.priorFactor.slice(), mu: a.mu.slice(), factor: a.factor.slice(),
    records: a.scalars[0], objective: a.scalars[1], iterations: a.scalars[2], adam: a.adam.slice(), rng: a.rng.slice(),
  };
}
