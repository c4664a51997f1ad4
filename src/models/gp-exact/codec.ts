import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import type { GpExactState } from './state.js';

/**
 * A layout-1 snapshot (no starting hyperparameters) as layout 2: layout 1 kept only the current
 * hyperparameters, so they stand in for the starting ones (what `emptyLike` starts from).
 */
function fromLayout1(snapshot: ModelSnapshot): ModelSnapshot {
  const params = snapshot.arrays.params;
  if (params === undefined || params.length < 3) throw new SnapshotError('gp-exact snapshot lacks its hyperparameters', { field: 'params' });
  const values = Array.from(params, Math.exp);
  const initial = { variance: values[0], lengthscale: values.slice(1, -1), noiseVariance: values[values.length - 1] };
  return { ...snapshot, version: 2, header: { ...snapshot.header, initial } };
}

/** The gp-exact snapshot (layout 2): the settings and starting hyperparameters (header), the records, the current hyperparameters and log p(y | X, θ). */
export const gpExactCodec: FamilyCodec<GpExactState> = {
  version: 2,
  notYetComputed: { logMarginal: [0] },
  encode: (s) => ({
    header: {
      ard: s.ard, fixedKernel: s.fixedKernel, fixedNoise: s.fixedNoise, maxIterations: s.maxIterations, records: s.records,
      initial: { variance: s.initial.variance, lengthscale: [...s.initial.lengthscale], noiseVariance: s.initial.noiseVariance },
    },
    arrays: { params: s.params.slice(), x: s.x.slice(), y: s.y.slice(), logMarginal: Float64Array.of(s.logMarginal) },
  }),
  decode(snapshot) {
    const h = snapshot.header as { ard?: unknown; fixedKernel?: unknown; fixedNoise?: unknown; maxIterations?: unknown; records?: unknown; initial?: { variance?: unknown; lengthscale?: unknown; noiseVariance?: unknown } };
    const d = snapshot.dim;
    const initial = h.initial;
    if (typeof h.ard !== 'boolean' || typeof h.fixedKernel !== 'boolean' || typeof h.fixedNoise !== 'boolean' || typeof h.maxIterations !== 'number' || typeof h.records !== 'number'
      || initial === undefined || typeof initial.variance !== 'number' || typeof initial.noiseVariance !== 'number'
      || !Array.isArray(initial.lengthscale) || initial.lengthscale.length !== (h.ard ? d : 1) || !initial.lengthscale.every((l) => typeof l === 'number')) {
      throw new SnapshotError('gp-exact snapshot header is malformed', { field: 'header' });
    }
    const a = checkSnapshot(snapshot, 'gp-exact', 2, { params: 2 + (h.ard ? d : 1), x: h.records * d, y: h.records, logMarginal: 1 });
    return {
      dim: d, ard: h.ard, fixedKernel: h.fixedKernel, fixedNoise: h.fixedNoise, maxIterations: h.maxIterations,
      initial: { variance: initial.variance, lengthscale: [...(initial.lengthscale as number[])], noiseVariance: initial.noiseVariance },
      params: a.params.slice(), x: a.x.slice(), y: a.y.slice(), records: h.records, logMarginal: a.logMarginal[0],
    };
  },
  migrations: { 1: fromLayout1 },
};
