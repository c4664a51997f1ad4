import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import type { SnapshotStore } from '../../connectors/kafka/snapshot-store.js';
import type { BanditPolicy } from '../../src/bandit/bandit-policy.js';
import { mergePolicy } from '../../src/bandit/merge-policy.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import type { PartitionStateStore } from './partition-state-store.js';

/** The policy of every partition merged, with what it holds. */
export interface CombinedPolicy {
  readonly policy: BanditPolicy;
  /** Partitions with a state (the others have learned nothing yet). */
  readonly partitions: readonly number[];
  /** Rewards (and expired decisions) learned, over the partitions. */
  readonly learned: number;
  /** Decisions pending at the partitions' states. */
  readonly pending: number;
  /** Each partition's rewards offset (0 for one with no state). */
  readonly rewardsOffsets: readonly number[];
}

/**
 * The bandit counterpart of `PosteriorCombiner`: reads the latest durable state of every partition
 * (its head record: the partition's own policy) and merges the policies into a fresh one, partition
 * by partition in order ({@link mergePolicy}: each family's `merge`, the SDA-Bayes combination), so
 * the result is a function of the partitions' states alone, whichever instance combines them. One
 * partition's policy is published as it is (no merge: every policy kind works on one partition).
 * `publish` writes it under `model/global`, where deciders hot-swap it.
 */
export class BanditPolicyCombiner {
  constructor(private readonly states: PartitionStateStore, readonly options: { readonly model: string; readonly partitions: number; readonly createPolicy: () => BanditPolicy }) {
    BanditPolicyCombiner.check(options.createPolicy, options.partitions);
  }

  /** Refuses, with a `ConfigError`, a policy that cannot merge when there is more than one partition. */
  static check(createPolicy: () => BanditPolicy, partitions: number): void {
    if (partitions > 1) mergePolicy(createPolicy(), createPolicy());
  }

  async combine(): Promise<CombinedPolicy> {
    const { partitions, createPolicy } = this.options;
    const merged: number[] = [];
    const rewardsOffsets = new Array<number>(partitions).fill(0);
    let policy = partitions === 1 ? undefined : createPolicy();
    let learned = 0;
    let pending = 0;
    for (let p = 0; p < partitions; p++) {
      const state = await this.states.readPolicy(p);
      if (state === undefined) continue;
      if (policy === undefined) policy = state.policy;
      else mergePolicy(policy, state.policy);
      merged.push(p);
      learned += state.learned;
      pending += state.pending;
      rewardsOffsets[p] = state.rewardsOffset;
    }
    return { policy: policy ?? createPolicy(), partitions: merged, learned, pending, rewardsOffsets };
  }

  /** Saves a combined policy under `model/global` (its rewards, pending decisions, partitions and offsets in the `meta`). */
  async publish(store: SnapshotStore, combined: CombinedPolicy): Promise<void> {
    const { model } = this.options;
    const meta = { model, rewards: combined.learned, pending: combined.pending, partitions: [...combined.partitions], rewardsOffsets: [...combined.rewardsOffsets] };
    await store.save(snapshotKey(model, 'global'), encodeSnapshot(combined.policy.snapshot(), meta));
  }
}
