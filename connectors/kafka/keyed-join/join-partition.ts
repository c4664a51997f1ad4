import type { JoinState } from './join-state.js';
import type { PendingJoins } from './pending-joins.js';

/**
 * One partition of the co-partitioned logged and outcomes topics at the learner instance that owns
 * it, for one consumer-group generation: the state (restored from its snapshot), the read
 * positions, and the bookkeeping of the instance (seeks, expiry markers written, snapshots owed).
 * Once revoked or superseded (`live` false) it is never read, learned or snapshotted again.
 */
export class JoinPartition<L, M> implements JoinState<L, M> {
  readonly model: M;
  readonly pending: PendingJoins<L>;
  loggedNext: number;
  outcomesNext: number;
  learned: number;
  /** Outcomes read since the last snapshot. */
  sinceSnapshot = 0;
  live = true;
  /** This partition's snapshot writes, one after another. */
  checkpoints: Promise<void> = Promise.resolve();
  /** Snapshot writes asked for and not yet settled. */
  writes = 0;
  /** Ids whose expiry marker this instance wrote (once per record and instance). */
  readonly marked = new Set<string>();
  /** Logged-topic offset last sought to, and how often (a batch past it is fetched again from there). */
  loggedSoughtTo = -1;
  loggedSeeks = 0;
  /** Outcomes-topic offset last sought to, and whether a first batch was checked against `outcomesNext`. */
  outcomesSoughtTo = -1;
  outcomesPositioned = false;
  private waiters: (() => void)[] = [];

  constructor(readonly partition: number, readonly generation: number, state: JoinState<L, M>) {
    this.model = state.model;
    this.pending = state.pending;
    this.loggedNext = state.loggedNext;
    this.outcomesNext = state.outcomesNext;
    this.learned = state.learned;
  }

  /** Wakes whoever waits for the logged topic to be read further (or for the partition to be retired). */
  wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves at the next {@link wake}, or after `ms`. */
  nextRead(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => { clearTimeout(timer); resolve(); });
    });
  }

  /** No longer owned (revoked, superseded, or the learner stops). */
  retire(): void {
    this.live = false;
    this.wake();
  }
}
