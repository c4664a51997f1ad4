import type { BanditPolicy } from '../../src/bandit/bandit-policy.js';
import type { PendingDecisions } from './pending-decisions.js';

/** What a partition's state holds: its own policy (the rewards of this partition only), its pending decisions and where both topics are read to. */
export interface BanditPartitionState {
  readonly policy: BanditPolicy;
  readonly pending: PendingDecisions;
  /** Next offset of the partition in the decisions topic. */
  readonly decisionsNext: number;
  /** Next offset of the partition in the rewards topic. */
  readonly rewardsNext: number;
  /** Rewards (and expired decisions) learned into the policy. */
  readonly learned: number;
}

/**
 * One partition of the co-partitioned decisions and rewards topics at the learner instance that
 * owns it, for one consumer-group generation: the state (restored from its snapshot), the read
 * positions, and the bookkeeping of the instance (seeks, expiry markers written, snapshots owed).
 * Once revoked or superseded (`live` false) it is never read, learned or snapshotted again.
 */
export class BanditPartition {
  readonly policy: BanditPolicy;
  readonly pending: PendingDecisions;
  decisionsNext: number;
  rewardsNext: number;
  learned: number;
  /** Rewards read since the last snapshot. */
  sinceSnapshot = 0;
  live = true;
  /** This partition's snapshot writes, one after another. */
  checkpoints: Promise<void> = Promise.resolve();
  /** Decision ids whose expiry marker this instance wrote (once per decision and instance). */
  readonly marked = new Set<string>();
  /** Decisions-topic offset last sought to, and how often (a batch past it is fetched again from there). */
  decisionsSoughtTo = -1;
  decisionsSeeks = 0;
  /** Rewards-topic offset last sought to, and whether a first batch was checked against `rewardsNext`. */
  rewardsSoughtTo = -1;
  rewardsPositioned = false;
  private waiters: (() => void)[] = [];

  constructor(readonly partition: number, readonly generation: number, state: BanditPartitionState) {
    this.policy = state.policy;
    this.pending = state.pending;
    this.decisionsNext = state.decisionsNext;
    this.rewardsNext = state.rewardsNext;
    this.learned = state.learned;
  }

  /** Wakes whoever waits for the decisions topic to be read further (or for the partition to be retired). */
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
