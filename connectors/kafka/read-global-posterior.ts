import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { getFamily } from '../../src/registry.js';
import type { GlobalPosterior } from './posterior-combiner.js';
import { snapshotKey } from './snapshot-key.js';
import type { SnapshotStore } from './snapshot-store.js';

/** The global posterior last published by a `PosteriorCombiner` for `model`, or undefined if none. */
export async function readGlobalPosterior(store: SnapshotStore, model: string): Promise<GlobalPosterior | undefined> {
  const bytes = await store.latest(snapshotKey(model, 'global'));
  if (bytes === undefined) return undefined;
  const { snapshot, meta } = decodeSnapshot(bytes);
  const offsets = typeof meta.offsets === 'object' && meta.offsets !== null && !Array.isArray(meta.offsets) ? meta.offsets as { [p: string]: number } : {};
  const restored = getFamily(snapshot.family).restore(snapshot);
  return { model: restored, offsets, records: restored.recordsSeen, version: typeof meta.version === 'string' ? meta.version : '' };
}
