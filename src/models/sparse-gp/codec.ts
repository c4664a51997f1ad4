import { checkSnapshot } from '../../core/check-snapshot.js';
import type { JsonValue, ModelSnapshot } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { Adam } from '../../optim/adam.js';
import { Rng } from '../../rng/rng.js';
import { resolveSparseGpOptions, type ResolvedSparseGpOptions, type SparseGpLikelihoodName } from './options.js';
import { ParameterLayout } from './parameter-layout.js';
import type { SparseGpState } from './state.js';

/** Layout version of the sparse-GP snapshot. */
export const SPARSE_GP_SNAPSHOT_VERSION = 1;

/** Snapshot of the settings (header), θ, Adam's state, the generator state and the counters. */
export function encodeSparseGp(s: SparseGpState): ModelSnapshot {
  return {
    family: s.family,
    version: SPARSE_GP_SNAPSHOT_VERSION,
    dim: s.dim,
    header: { options: s.options as unknown as { [key: string]: JsonValue }, initialised: s.initialised },
    arrays: {
      theta: s.theta.slice(),
      adam: s.adam.state(),
      rng: Float64Array.from(s.rng.getState()),
      scalars: Float64Array.of(s.records, s.steps, s.lastObjective),
    },
  };
}

/** Rebuilds the state from {@link encodeSparseGp}'s snapshot, refusing foreign or malformed ones. */
export function decodeSparseGp(family: string, snapshot: ModelSnapshot): SparseGpState {
  const header = snapshot.header as { options?: ResolvedSparseGpOptions; initialised?: unknown };
  if (snapshot.family !== family) checkSnapshot(snapshot, family, SPARSE_GP_SNAPSHOT_VERSION, {});
  const o = header.options;
  if (o === undefined || typeof o !== 'object' || typeof header.initialised !== 'boolean') throw new SnapshotError(`${family} snapshot header is malformed`, { field: 'header' });
  let options: ResolvedSparseGpOptions;
  try {
    const { ard, variance, lengthscale, ...rest } = o;
    options = { ...resolveSparseGpOptions(snapshot.dim, { ...rest, Z: rest.Z ?? undefined, dataSize: rest.dataSize ?? undefined, kernel: { type: ard ? 'rbf-ard' : 'rbf', variance, lengthscale } }, [o.likelihood as SparseGpLikelihoodName]) };
  } catch (cause) {
    throw new SnapshotError(`${family} snapshot options are invalid: ${(cause as Error).message}`, { field: 'header.options' }, { cause });
  }
  const layout = new ParameterLayout(options.M, snapshot.dim, 1 + (options.ard ? snapshot.dim : 1));
  const a = checkSnapshot(snapshot, family, SPARSE_GP_SNAPSHOT_VERSION, { theta: layout.size, adam: 5 + 2 * layout.size, rng: 7, scalars: 3 });
  let rng: Rng;
  try {
    rng = Rng.fromState(Uint32Array.from(a.rng));
  } catch (cause) {
    throw new SnapshotError('snapshot generator state is invalid', { field: 'rng' }, { cause });
  }
  return {
    family, dim: snapshot.dim, options, layout, theta: a.theta.slice(), adam: Adam.fromState(a.adam), rng,
    initialised: header.initialised, records: a.scalars[0], steps: a.scalars[1], lastObjective: a.scalars[2],
  };
}
