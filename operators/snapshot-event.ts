import type { ModelSnapshot } from '../src/core/model-snapshot.js';

/** Why a snapshot was taken. */
export type SnapshotReason = 'records' | 'interval' | 'complete';

/** A posterior snapshot with its envelope: what `snapshots()` emits and a snapshot store saves. */
export interface SnapshotEvent {
  readonly snapshot: ModelSnapshot;
  /** Records the snapshot's model has absorbed. */
  readonly recordsSeen: number;
  /** Per source, the offset to resume from once this snapshot is restored. */
  readonly positions: { readonly [source: string]: number };
  /** ISO-8601 time the snapshot was asked for. */
  readonly createdAt: string;
  readonly reason: SnapshotReason;
}
