/** The models of every partition of a keyed join merged, with what they hold. */
export interface CombinedJoinModel<M> {
  readonly model: M;
  /** Partitions with a state (the others have learned nothing yet), ascending. */
  readonly partitions: readonly number[];
  /** Outcomes (and expired records with a default value) learned, over the partitions. */
  readonly learned: number;
  /** Logged records pending at the partitions' states. */
  readonly pending: number;
  /** Each partition's next outcomes offset (0 for one with no state), by partition. */
  readonly outcomesOffsets: readonly number[];
}
