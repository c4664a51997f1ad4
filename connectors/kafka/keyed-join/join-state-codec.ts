import type { ModelSnapshot } from '../../../src/core/model-snapshot.js';
import type { SnapshotStore } from '../snapshot-store.js';
import type { JoinState } from './join-state.js';
import type { PendingJoinKeys } from './pending-joins.js';

/** What identifies a join's state: the model name and the two topics it joins, and how many resolved ids a partition remembers. */
export interface JoinStateIdentity {
  readonly model: string;
  readonly loggedTopic: string;
  readonly outcomesTopic: string;
  readonly remember: number;
}

/** How a keyed join's partition state is written and read: the words of its layout, its logged records' keys, its model's snapshot. */
export interface JoinStateCodec<L, M> extends PendingJoinKeys<L> {
  snapshot(model: M): ModelSnapshot;
  /** The model of a snapshot `snapshot` wrote; anything else throws a `SnapshotError`. */
  restore(snapshot: ModelSnapshot): M;
  /**
   * The state of an older layout, read when a partition has no state in this one yet (an upgrade
   * path), or undefined.
   */
  previousState?(store: SnapshotStore, identity: JoinStateIdentity, partition: number, partitions: number): Promise<JoinState<L, M> | undefined>;
}
