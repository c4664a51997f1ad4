import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import type { JsonValue } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { Adam } from '../../optim/adam.js';
import { Rng } from '../../rng/rng.js';
import { sparseGpOptionsOf } from './options-of.js';
import type { ResolvedSparseGpOptions, SparseGpLikelihoodName } from './options.js';
import { ParameterLayout } from './parameter-layout.js';
import { resolveSparseGpOptions } from './resolve-options.js';
import type { SparseGpState } from './state.js';

/**
 * The sparse-GP snapshot (layout 1): the resolved options and whether Z is set (header), θ, Adam's
 * state, the generator state and the counters (records, steps, last objective). The options are
 * checked again on restore, against the family's likelihoods.
 */
export function sparseGpCodec(family: string, likelihoods: readonly SparseGpLikelihoodName[]): FamilyCodec<SparseGpState> {
  return {
    version: 1,
    notYetComputed: { scalars: [2] },
    encode: (s) => ({
      header: { options: s.options as unknown as { [key: string]: JsonValue }, initialised: s.initialised },
      arrays: { theta: s.theta.slice(), adam: s.adam.state(), rng: Float64Array.from(s.rng.getState()), scalars: Float64Array.of(s.records, s.steps, s.lastObjective) },
    }),
    decode(snapshot) {
      const header = snapshot.header as { options?: ResolvedSparseGpOptions; initialised?: unknown };
      const o = header.options;
      if (o === undefined || typeof o !== 'object' || o === null || typeof header.initialised !== 'boolean') throw new SnapshotError(`${family} snapshot header is malformed`, { field: 'header' });
      let options: ResolvedSparseGpOptions;
      try {
        options = resolveSparseGpOptions(snapshot.dim, sparseGpOptionsOf(o), likelihoods);
      } catch (cause) {
        throw new SnapshotError(`${family} snapshot options are invalid: ${(cause as Error).message}`, { field: 'header.options' }, { cause });
      }
      const layout = new ParameterLayout(options.M, snapshot.dim, 1 + (options.ard ? snapshot.dim : 1));
      const a = checkSnapshot(snapshot, family, 1, { theta: layout.size, adam: 5 + 2 * layout.size, rng: 7, scalars: 3 });
      let rng: Rng;
      try {
        rng = Rng.fromState(Uint32Array.from(a.rng));
      } catch (cause) {
        throw new SnapshotError('snapshot generator state is invalid', { field: 'rng' }, { cause });
      }
      return {
        dim: snapshot.dim, options, layout, theta: a.theta.slice(), adam: Adam.fromState(a.adam), rng,
        initialised: header.initialised, records: a.scalars[0], steps: a.scalars[1], lastObjective: a.scalars[2],
      };
    },
  };
}
