import type { DeadLetterReason } from '../../connectors/kafka/dead-letter-reason.js';
import type { KafkaPort } from '../../connectors/kafka/kafka-port.js';
import type { KeyedJoinEvent } from '../../connectors/kafka/keyed-join/keyed-join-event.js';
import { KeyedJoinLearner, type KeyedJoinLearnerOptions } from '../../connectors/kafka/keyed-join/keyed-join-learner.js';
import type { SnapshotStore } from '../../connectors/kafka/snapshot-store.js';
import type { BanditPolicy } from '../../src/bandit/bandit-policy.js';
import { mergePolicy } from '../../src/bandit/merge-policy.js';
import { ConfigError } from '../../src/core/config-error.js';
import { optionChecks } from '../../src/core/option-checks.js';
import { banditJoin } from './bandit-join.js';
import type { BanditLearnerEvent } from './bandit-learner-event.js';
import type { BanditMetrics } from './bandit-metrics.js';
import type { LoggedDecision } from './logged-decision.js';

/** Options of {@link BanditLearner}: the runtime's (`KeyedJoinLearnerOptions`, its logged records the decisions and its outcomes the rewards), with the topics, the window, the policy and its events in the bandit's words. */
export interface BanditLearnerOptions extends Omit<KeyedJoinLearnerOptions, 'loggedTopic' | 'outcomesTopic' | 'windowMs' | 'expiredValue' | 'groupId' | 'globalStore' | 'onEvent'> {
  /** Where deciders log decisions (keyed by decision id). */
  readonly decisionsTopic: string;
  /** Where rewards arrive (keyed by decision id: co-partitioned with the decisions). */
  readonly rewardsTopic: string;
  /** The policy of a fresh start (no state snapshot yet). */
  readonly createPolicy: () => BanditPolicy;
  /** How long a decision waits for its reward, ms from the decider's `decidedAt`. */
  readonly rewardWindowMs: number;
  /** The reward learned for a decision whose window closed without one; undefined: such a decision is dropped (not learned). */
  readonly expiredReward?: number;
  /** Where the policy for the deciders is published (default: the state store). */
  readonly policyStore?: SnapshotStore;
  /** Consumer group of the learner instances that share the topics (default `vbstream-bandit-learner.<rewardsTopic>.<model>`): the partitions are spread over its members. */
  readonly groupId?: string;
  readonly metrics?: BanditMetrics;
  readonly onEvent?: (event: BanditLearnerEvent) => void;
}

/** A keyed-join event in the bandit's words (decisions and rewards). */
function banditEvent(event: KeyedJoinEvent): BanditLearnerEvent {
  switch (event.type) {
    case 'restored': {
      const { partition, fromSnapshot, outcomesOffset, loggedOffset, pending, learned } = event;
      return { type: 'restored', partition, fromSnapshot, rewardsOffset: outcomesOffset, decisionsOffset: loggedOffset, pending, learned };
    }
    case 'checkpoint': {
      const { partition, outcomesOffset, loggedOffset, pending, learned, chunks } = event;
      return { type: 'checkpoint', partition, rewardsOffset: outcomesOffset, decisionsOffset: loggedOffset, pending, learned, chunks };
    }
    case 'expiring':
      return { type: 'expiring', decisions: event.count };
    default:
      return event;
  }
}

/**
 * The learning side of the bandit backend: joins the decisions the deciders log with the rewards
 * that follow, by decision id, and learns each reward exactly once across crashes and rebalances —
 * the keyed-join runtime (`KeyedJoinLearner`, `vbstream/kafka`) with a reward as the outcome joined
 * to a logged decision ({@link banditJoin}). Any number of instances share the work in one
 * consumer group (`groupId`).
 *
 * - Partitions: the decisions and rewards topics have the same partitions and are keyed by decision
 *   id, so a decision and its reward share a partition; every partition has its own state — its own
 *   policy (this partition's rewards only), its pending decisions and resolved ids, and both topics'
 *   next offsets — restored after every group join before a reward is applied, so a rebalance or a
 *   crash moves a partition with its state and each reward is in the state once.
 * - Join: a reward whose decision has not been read yet waits until the decisions partition is read
 *   up to its end as of then, so only a decision that was never logged is `unknown-decision`.
 * - State: written every `snapshotEvery` rewards of a partition, and `snapshotEveryMs` after a
 *   reward not yet snapshotted, its pending decisions in chunks of at most `maxStateRecordBytes`
 *   (`JoinStateStore` in `BANDIT_STATE_CODEC`'s layout; the single-learner layout is restored on one partition).
 * - Reward window: expiry markers on the rewards topic for decisions older than `rewardWindowMs`
 *   (from the decider's `decidedAt`), learned with `expiredReward` or dropped when read back in log
 *   order, so a replay sees the same rewards and expiries.
 * - Dead letters (`<topic>.dlq`, with reasons): `duplicate-reward`, `late-reward` (after the window
 *   closed), `unknown-decision`, `refused-by-model`, and the parse failures (`empty`, `bad-json`,
 *   `bad-shape`, `bad-label`).
 * - The policy for the deciders (`JoinModelCombiner` with `mergePolicy`): after every state written, the
 *   latest durable state of every partition, merged, under `model/global`. With more than one
 *   partition the policy must merge (`mergePolicy`: Thompson and ε-greedy over families with
 *   `merge`), else `start` throws a `ConfigError`.
 * - Outages: ridden out for `maxOutageMs` (writes retried, readiness false); `stop` ends within
 *   `shutdownTimeoutMs`.
 */
export class BanditLearner {
  private readonly runtime: KeyedJoinLearner<LoggedDecision, BanditPolicy>;

  constructor(port: KafkaPort, store: SnapshotStore, readonly options: BanditLearnerOptions) {
    optionChecks.positive('rewardWindowMs', options.rewardWindowMs, Number.NaN);
    if (options.expiredReward !== undefined && !Number.isFinite(options.expiredReward)) throw new ConfigError('expiredReward must be a finite number (or undefined: drop)', { field: 'expiredReward', value: options.expiredReward });
    const { decisionsTopic, rewardsTopic, createPolicy, rewardWindowMs, expiredReward, policyStore, groupId, metrics, onEvent, ...runtime } = options;
    const { model } = runtime;
    this.runtime = new KeyedJoinLearner(port, store, banditJoin({ model, createPolicy, metrics }), {
      ...runtime, loggedTopic: decisionsTopic, outcomesTopic: rewardsTopic, groupId: groupId ?? `vbstream-bandit-learner.${rewardsTopic}.${model}`,
      windowMs: rewardWindowMs, expiredValue: expiredReward, globalStore: policyStore,
      onEvent: onEvent === undefined ? undefined : (event) => onEvent(banditEvent(event)),
    });
  }

  /** Rewards (and expired decisions) learned into the policies of the partitions this instance owns, in all runs since the first. */
  get learned(): number {
    return this.runtime.learned;
  }

  /** Decisions awaiting their reward at the partitions this instance owns. */
  get pendingCount(): number {
    return this.runtime.pendingCount;
  }

  /** The partitions this instance owns and has restored. */
  get partitions(): number[] {
    return this.runtime.partitions;
  }

  /** The policy of the partitions this instance owns: one partition's own policy (live: read it, never change it), or several merged into a fresh one. */
  get currentPolicy(): BanditPolicy {
    const owned = this.runtime.models;
    if (owned.length === 1) return owned[0];
    const merged = this.options.createPolicy();
    for (const policy of owned) mergePolicy(merged, policy);
    return merged;
  }

  /** Whether the brokers are unreachable now (an outage being ridden out). */
  get brokersDown(): boolean {
    return this.runtime.brokersDown;
  }

  /** Dead letters by reason. */
  deadLettersByReason(): Record<DeadLetterReason, number> | undefined {
    return this.runtime.deadLettersByReason();
  }

  /** Creates the topics if missing, publishes the merged policy, joins the group and starts reading. `onFatal` hears a failure that stops the learner. */
  start(onFatal: (error: Error) => void): Promise<void> {
    return this.runtime.start(onFatal);
  }

  /** Stops reading, writes the state of every owned partition with rewards since its last, publishes the merged policy, leaves the group and disconnects, within `shutdownTimeoutMs`. */
  stop(): Promise<void> {
    return this.runtime.stop();
  }
}
