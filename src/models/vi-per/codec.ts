import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { Adam } from '../../optim/adam.js';
import { Rng } from '../../rng/rng.js';
import { packedLength } from './objective.js';
import { resolveViPerSettings, type ViPerSettings } from './settings.js';
import type { ViPerState } from './state.js';

const SETTING_TYPES: { readonly [key in Exclude<keyof ViPerSettings, 'optimizer' | 'tau' | 'kappa'>]: 'string' | 'number' } = {
  covariance: 'string', method: 'string', l: 'number', points: 'number', samples: 'number', seed: 'number', tol: 'number',
  maxIter: 'number', streaming: 'string', learningRate: 'number', stepsPerBatch: 'number', dataSize: 'number',
};
/** Settings added after layout 1 was first written: absent in older snapshots (whose `svi` was Adam). */
const LATER_SETTINGS: { readonly [key: string]: 'string' | 'number' } = { optimizer: 'string', tau: 'number', kappa: 'number' };

/**
 * The vi-per snapshot (layout 1): the settings, q(β), the prior, and the SVI state — `adam` as
 * `Adam.state()`, empty before the first SVI step, and `rng` as `Rng.getState()` (7 words).
 */
export function viPerCodec(family: string): FamilyCodec<ViPerState> {
  return {
    version: 1,
    encode: (s) => ({
      header: { settings: { ...s.settings } },
      arrays: {
        priorMean: s.priorMean.slice(), priorFactor: s.priorFactor.slice(), mu: s.mu.slice(), factor: s.factor.slice(),
        adam: s.adam.t === 0 ? new Float64Array(0) : s.adam.state(), rng: Float64Array.from(s.rng.getState()),
        scalars: Float64Array.of(s.records, s.objective, s.iterations),
      },
    }),
    decode(snapshot) {
      const d = snapshot.dim;
      const a = checkSnapshot(snapshot, family, 1, { priorMean: d, priorFactor: d * d, mu: d, factor: d * d, rng: 7, scalars: 3 });
      const header = (snapshot.header as { settings?: { [key: string]: unknown } }).settings;
      if (header === undefined || typeof header !== 'object' || header === null || Object.entries(SETTING_TYPES).some(([key, type]) => typeof header[key] !== type)
        || Object.entries(LATER_SETTINGS).some(([key, type]) => header[key] !== undefined && typeof header[key] !== type)) {
        throw new SnapshotError(`${family} snapshot header is malformed`, { field: 'header.settings' });
      }
      const given = { optimizer: 'adam', ...header } as unknown as ViPerSettings;
      const settings = resolveViPerSettings(given, given.method, given.covariance);
      const adamLength = 5 + 2 * packedLength(d, settings.covariance);
      if (a.adam === undefined || (a.adam.length !== 0 && a.adam.length !== adamLength)) throw new SnapshotError(`snapshot array "adam" must hold 0 or ${adamLength} values`, { field: 'adam', value: a.adam?.length });
      return {
        dim: d, settings, priorMean: a.priorMean.slice(), priorFactor: a.priorFactor.slice(), mu: a.mu.slice(), factor: a.factor.slice(),
        records: a.scalars[0], objective: a.scalars[1], iterations: a.scalars[2],
        adam: a.adam.length === 0 ? new Adam(packedLength(d, settings.covariance), { learningRate: settings.learningRate }) : Adam.fromState(a.adam),
        rng: Rng.fromState(Uint32Array.from(a.rng)),
      };
    },
  };
}
