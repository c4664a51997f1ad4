import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { snapshotChecks } from '../../core/snapshot-checks.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { Adam } from '../../optim/adam.js';
import { Rng } from '../../rng/rng.js';
import { packedLength } from './objective.js';
import { resolveViPerSettings, type ViPerSettings } from './settings.js';
import type { ViPerState } from './state.js';

const SETTING_TYPES: { readonly [key in Exclude<keyof ViPerSettings, 'optimizer' | 'tau' | 'kappa' | 'refit' | 'refitFraction'>]: 'string' | 'number' } = {
  covariance: 'string', method: 'string', l: 'number', points: 'number', samples: 'number', seed: 'number', tol: 'number',
  maxIter: 'number', streaming: 'string', replay: 'number', learningRate: 'number', stepsPerBatch: 'number', dataSize: 'number',
};
/** Settings added after layout 1 was first written: absent in older snapshots (whose `svi` was Adam and whose `sda` refitted by L-BFGS on every update). */
const LATER_SETTINGS: { readonly [key: string]: 'string' | 'number' } = { optimizer: 'string', tau: 'number', kappa: 'number', refit: 'string', refitFraction: 'number' };

/**
 * Layout 1 → 2: a model of before the replay streamed with none, so `replay` 0, q_a = the stored q
 * and an empty buffer (it then goes on exactly as it would have).
 */
function addReplay(snapshot: ModelSnapshot): ModelSnapshot {
  const settings = snapshot.header.settings;
  const { mu, factor } = snapshot.arrays;
  return {
    ...snapshot, version: 2,
    header: typeof settings === 'object' && settings !== null && !Array.isArray(settings) ? { ...snapshot.header, settings: { ...settings, replay: 0 } } : snapshot.header,
    arrays: {
      ...snapshot.arrays, ...(mu === undefined ? {} : { anchorMean: mu }), ...(factor === undefined ? {} : { anchorFactor: factor }),
      bufferX: new Float64Array(0), bufferY: new Float64Array(0), bufferWeights: new Float64Array(0),
    },
  };
}

/**
 * The vi-per snapshot (layout 2): the settings, q(β), the prior, the `sda` replay — q_a (`anchorMean`,
 * `anchorFactor`) and the buffered records only (`bufferX` buffered × d, `bufferY` ±1, `bufferWeights`)
 * — and the SVI state: `adam` as `Adam.state()`, empty before the first SVI step, and `rng` as
 * `Rng.getState()` (7 words). Layout 1 (no replay) restores through {@link addReplay}.
 */
export function viPerCodec(family: string): FamilyCodec<ViPerState> {
  return {
    version: 2,
    migrations: { 1: addReplay },
    notYetComputed: { scalars: [1] },
    invariants: (s) => snapshotChecks.positiveDiagonal('priorFactor', s.priorFactor, s.dim) ?? snapshotChecks.positiveDiagonal('factor', s.factor, s.dim)
      ?? snapshotChecks.positiveDiagonal('anchorFactor', s.anchorFactor, s.dim),
    encode: (s) => ({
      header: { settings: { ...s.settings } },
      arrays: {
        priorMean: s.priorMean.slice(), priorFactor: s.priorFactor.slice(), mu: s.mu.slice(), factor: s.factor.slice(),
        anchorMean: s.anchorMean.slice(), anchorFactor: s.anchorFactor.slice(), bufferX: s.bufferX.slice(0, s.buffered * s.dim),
        bufferY: s.bufferY.slice(0, s.buffered), bufferWeights: s.bufferWeights.slice(0, s.buffered),
        adam: s.adam.t === 0 ? new Float64Array(0) : s.adam.state(), rng: Float64Array.from(s.rng.getState()),
        scalars: Float64Array.of(s.records, s.objective, s.iterations),
      },
    }),
    decode(snapshot) {
      const d = snapshot.dim;
      const a = checkSnapshot(snapshot, family, 2, { priorMean: d, priorFactor: d * d, mu: d, factor: d * d, anchorMean: d, anchorFactor: d * d, rng: 7, scalars: 3 });
      const header = (snapshot.header as { settings?: { [key: string]: unknown } }).settings;
      if (header === undefined || typeof header !== 'object' || header === null || Object.entries(SETTING_TYPES).some(([key, type]) => typeof header[key] !== type)
        || Object.entries(LATER_SETTINGS).some(([key, type]) => header[key] !== undefined && typeof header[key] !== type)) {
        throw new SnapshotError(`${family} snapshot header is malformed`, { field: 'header.settings' });
      }
      const given = { optimizer: 'adam', refit: 'lbfgs', ...header } as unknown as ViPerSettings;
      const settings = resolveViPerSettings(given, given.method, given.covariance);
      const adamLength = 5 + 2 * packedLength(d, settings.covariance);
      if (a.adam === undefined || (a.adam.length !== 0 && a.adam.length !== adamLength)) throw new SnapshotError(`snapshot array "adam" must hold 0 or ${adamLength} values`, { field: 'adam', value: a.adam?.length });
      const buffered = a.bufferY?.length ?? -1;
      if (buffered < 0 || buffered > settings.replay || buffered > a.scalars[0] || a.bufferX?.length !== buffered * d || a.bufferWeights?.length !== buffered) {
        throw new SnapshotError(`snapshot arrays "bufferX", "bufferY", "bufferWeights" must hold b × ${d}, b and b values, b ≤ replay (${settings.replay}) and the records seen`, { field: 'bufferY', value: buffered });
      }
      const bufferX = new Float64Array(settings.replay * d);
      bufferX.set(a.bufferX);
      const bufferY = new Float64Array(settings.replay);
      bufferY.set(a.bufferY);
      const bufferWeights = new Float64Array(settings.replay);
      bufferWeights.set(a.bufferWeights);
      return {
        dim: d, settings, priorMean: a.priorMean.slice(), priorFactor: a.priorFactor.slice(), mu: a.mu.slice(), factor: a.factor.slice(),
        anchorMean: a.anchorMean.slice(), anchorFactor: a.anchorFactor.slice(), bufferX, bufferY, bufferWeights, buffered,
        records: a.scalars[0], objective: a.scalars[1], iterations: a.scalars[2],
        adam: a.adam.length === 0 ? new Adam(packedLength(d, settings.covariance), { learningRate: settings.learningRate }) : Adam.fromState(a.adam),
        rng: Rng.fromState(Uint32Array.from(a.rng)),
      };
    },
  };
}
