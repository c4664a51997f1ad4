import { getFamily } from '../../src/registry.js';
import { decodeGlobalPosterior } from './decode-global-posterior.js';
import type { GlobalPosterior } from './posterior-combiner.js';
import { snapshotKey } from './snapshot-key.js';
import type { SnapshotStore } from './snapshot-store.js';

/** The global posterior last published by a `PosteriorCombiner` for `model`, or undefined if none. */
export async function readGlobalPosterior(store: SnapshotStore, model: string): Promise<GlobalPosterior | undefined> {
  const bytes = await store.latest(snapshotKey(model, 'global'));
  if (bytes === undefined) return undefined;
  const { snapshot, ...published } = decodeGlobalPosterior(bytes);
  const restored = getFamily(snapshot.family).restore(snapshot);
  return { ...published, model: restored, records: restored.recordsSeen };
}
