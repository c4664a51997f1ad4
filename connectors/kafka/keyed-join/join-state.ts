import type { PendingJoins } from './pending-joins.js';

/** What a partition's state holds: its own model (fed this partition's outcomes only), its pending logged records, where both topics are read to, and how much it has learned. */
export interface JoinState<L, M> {
  readonly model: M;
  readonly pending: PendingJoins<L>;
  /** Next offset of the partition in the logged topic. */
  readonly loggedNext: number;
  /** Next offset of the partition in the outcomes topic. */
  readonly outcomesNext: number;
  /** Outcomes (and expired records with a default value) learned into the model. */
  readonly learned: number;
}
