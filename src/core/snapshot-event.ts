import type { ModelSnapshot } from './model-snapshot.js';

/** Why a snapshot was taken: every N records, every T ms, when its source caught up with the end, or at the end of the stream. */
export type SnapshotReason = 'records' | 'interval' | 'caught-up' | 'complete';

/** Every {@link SnapshotReason}. */
export const SNAPSHOT_REASONS: readonly SnapshotReason[] = ['records', 'interval', 'caught-up', 'complete'];

/** A posterior snapshot with its envelope: what `snapshots()` emits and a snapshot store saves. */
export interface SnapshotEvent {
  readonly snapshot: ModelSnapshot;
  /** Records the snapshot's model has absorbed. */
  readonly recordsSeen: number;
  /** Per source, the offset to resume from once this snapshot is restored: taken at the same point of the learner's queue as the state. */
  readonly positions: { readonly [source: string]: number };
  /** ISO-8601 time the snapshot was asked for. */
  readonly createdAt: string;
  readonly reason: SnapshotReason;
}
