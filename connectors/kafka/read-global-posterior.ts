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
  const partitions = Array.isArray(meta.partitions) ? meta.partitions.filter((p): p is number => typeof p === 'number') : Object.keys(offsets).map(Number);
  const skipped = Array.isArray(meta.skipped)
    ? meta.skipped.flatMap((s) => (typeof s === 'object' && s !== null && !Array.isArray(s) && typeof s.partition === 'number' && typeof s.reason === 'string' ? [{ partition: s.partition, reason: s.reason }] : []))
    : [];
  return { model: restored, offsets, partitions, skipped, records: restored.recordsSeen, version: typeof meta.version === 'string' ? meta.version : '' };
}
