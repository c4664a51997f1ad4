import type { ModelSnapshot } from '../../src/core/model-snapshot.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { restoreSnapshotEvent } from '../../src/restore-snapshot-event.js';
import { snapshotKey } from './snapshot-key.js';
import type { SnapshotStore } from './snapshot-store.js';

/** What a partition is restored for: the topic and partition it reads, the model name, and the family and dimension configured. */
export interface PartitionIdentity {
  readonly topic: string;
  readonly partition: number;
  readonly model: string;
  readonly family: string;
  readonly dim: number;
}

/**
 * The latest snapshot of a partition's model (`model/partition` in the store) and the offset to
 * resume from, or undefined when there is none. The snapshot must be of this topic and partition
 * and fit the configured model — the same family, the same dimension, a layout this version reads
 * (older layouts are migrated) — else a non-retriable {@link SnapshotError} naming both sides, so
 * the service stops before any offset moves instead of dead-lettering every record.
 */
export async function restorePartition(store: SnapshotStore, identity: PartitionIdentity): Promise<{ snapshot: ModelSnapshot; nextOffset: number } | undefined> {
  const key = snapshotKey(identity.model, identity.partition);
  const bytes = await store.latest(key);
  if (bytes === undefined) return undefined;
  const where = `snapshot ${key}`;
  const { model, meta } = restoreSnapshotEvent(bytes, where, { family: identity.family, dim: identity.dim });
  if (meta.topic !== identity.topic || meta.partition !== identity.partition || typeof meta.nextOffset !== 'number' || !Number.isInteger(meta.nextOffset) || meta.nextOffset < 0) {
    throw new SnapshotError(`${where} is not of ${identity.topic} partition ${identity.partition} (it says topic ${JSON.stringify(meta.topic)}, partition ${JSON.stringify(meta.partition)}, next offset ${JSON.stringify(meta.nextOffset)})`, { source: identity.topic, field: 'meta' });
  }
  return { snapshot: model.snapshot(), nextOffset: meta.nextOffset };
}
