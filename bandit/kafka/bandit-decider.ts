import { randomUUID } from 'node:crypto';
import { BatchingWriter } from '../../connectors/kafka/batching-writer.js';
import { ensureTopic } from '../../connectors/kafka/ensure-topic.js';
import type { AdminPort, ConsumerPort, KafkaPort, PortMessage, ProducerPort } from '../../connectors/kafka/kafka-port.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import type { TopicDurability } from '../../connectors/kafka/topic-durability.js';
import type { BanditPolicy } from '../../src/bandit/bandit-policy.js';
import { restorePolicy } from '../../src/bandit/restore-policy.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import type { ModelSnapshot } from '../../src/core/model-snapshot.js';
import { ConfigError } from '../../src/core/config-error.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { Rng } from '../../src/rng/rng.js';
import type { BanditMetrics } from './bandit-metrics.js';
import type { LoggedDecision } from './logged-decision.js';
import { parseRewardRecord } from './parse-reward-record.js';

/** Options of {@link BanditDecider}. */
export interface BanditDeciderOptions {
  /** Where decisions are logged, keyed by decision id. */
  readonly decisionsTopic: string;
  /** Where {@link BanditDecider.reward} writes rewards, keyed by decision id (the learner's rewards topic); without it the decider takes no rewards. */
  readonly rewardsTopic?: string;
  /** The topic the learner publishes the policy to (its `policyStore`, a compacted snapshot topic). */
  readonly policyTopic: string;
  /** The learner's `model`: the policy is read under `model/global`. */
  readonly model: string;
  /** Decision ids are `${instanceId}-${n}`; default 12 random hex digits, new at every start, so ids never repeat across instances or restarts. */
  readonly instanceId?: string;
  /** Partitions of the decisions topic when this decider creates it (default 1; the learner's `partitions`). */
  readonly partitions?: number;
  readonly topics?: TopicDurability;
  /** Told about a published policy that could not be restored (the previous one keeps serving). */
  readonly onError?: (error: Error) => void;
  /** Told about every policy swapped in: the rewards behind it and its {@link BanditDecider.policyVersion}. */
  readonly onSwap?: (policyRewards: number, policyVersion: number) => void;
  readonly metrics?: BanditMetrics;
  /** A write to Kafka unacknowledged for longer than this is a broker problem ({@link BanditDecider.brokerProblem}), ms; default 10,000. */
  readonly unresponsiveAfterMs?: number;
}

/** 32-bit FNV-1a of a string: a seed per (instance, policy version). */
const seedOf = (text: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
};

/**
 * A stateless decider: serves `decide` from the latest policy the learner published (read from the
 * policy topic by a consumer of its own group and swapped in by one reference assignment, as the
 * scoring service does, so a decision is made entirely by one policy) and logs every decision —
 * context, arm, propensity, scores, time — to the decisions topic keyed by its id, with acks from
 * all in-sync replicas, before answering. Decisions made while a send is in flight go out together
 * in the next send. Any number of deciders may run: each restores the published policy with its
 * own generator (seeded by its instance id and the policy version, so two deciders do not draw
 * alike) and its own decision counter (ids `${instanceId}-${n}`). With a `rewardsTopic` it also
 * writes rewards (`reward`), so that its clients (e.g. `BanditHttpService`) need no Kafka client.
 * With `metrics` it records each decision, its propensity and its estimated regret (`BanditMetrics`).
 * A write the brokers refuse rejects `decide` / `reward` with an `io` `VbstreamError` naming the
 * topic and the broker's error (retriable unless no retry can help), and {@link brokerProblem} says
 * what is wrong while writes fail or hang.
 *
 * A decider that dies after logging a decision and before answering leaves a decision without a
 * reward: the learner's reward window resolves it. One that dies before logging leaves nothing.
 */
export class BanditDecider {
  readonly instanceId: string;
  /** Policies swapped in so far. */
  swaps = 0;
  private policy: BanditPolicy | undefined;
  private servedRewards = 0;
  private count = 0;
  private lastOffset = -1;
  private loadedWaiters: (() => void)[] = [];
  private readonly writer: BatchingWriter;

  private constructor(private readonly options: BanditDeciderOptions, private readonly producer: ProducerPort, private readonly reader: ConsumerPort, private readonly admin: AdminPort) {
    this.instanceId = options.instanceId ?? randomUUID().replaceAll('-', '').slice(0, 12);
    this.writer = new BatchingWriter([producer], admin, { probeTopic: options.decisionsTopic, unresponsiveAfterMs: options.unresponsiveAfterMs });
  }

  /** Creates the decisions (and rewards) topic if missing, connects and starts following the policy topic. */
  static async start(port: KafkaPort, options: BanditDeciderOptions): Promise<BanditDecider> {
    const admin = port.admin();
    await admin.connect();
    try {
      for (const topic of [options.decisionsTopic, options.rewardsTopic]) if (topic !== undefined) await ensureTopic(admin, topic, { partitions: options.partitions ?? 1, ...options.topics });
    } catch (error) {
      await admin.disconnect();
      throw error;
    }
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const reader = port.consumer({ groupId: `vbstream-bandit-decider-${randomUUID()}`, maxWaitTimeInMs: 100, maxBytesPerPartition: 16_777_216 });
    const decider = new BanditDecider(options, producer, reader, admin);
    await reader.connect();
    await reader.subscribe({ topics: [options.policyTopic], fromBeginning: true });
    const key = snapshotKey(options.model, 'global');
    await reader.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => decider.swapIn(batch.messages.filter((m) => m.key?.toString('utf8') === key && m.value !== null && Number(m.offset) > decider.lastOffset)),
    });
    return decider;
  }

  /** Rewards behind the policy being served (the learner's count when it published it). */
  get policyRewards(): number {
    return this.servedRewards;
  }

  /** Offset of the served policy's record on the policy topic (-1 before one is loaded): it grows with every policy the learner publishes. */
  get policyVersion(): number {
    return this.lastOffset;
  }

  /** Whether a policy is loaded. */
  get ready(): boolean {
    return this.policy !== undefined;
  }

  /** What keeps decisions and rewards from being logged, or undefined while the brokers take them (`BatchingWriter.brokerProblem`). */
  get brokerProblem(): string | undefined {
    return this.writer.brokerProblem;
  }

  /** Resolves once a policy is loaded (rejects after `timeoutMs`). */
  async loaded(timeoutMs = 60_000): Promise<void> {
    if (this.policy !== undefined) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new VbstreamError('io', `no policy ${this.options.model} on ${this.options.policyTopic} within ${timeoutMs} ms`, { source: this.options.policyTopic }, true)), timeoutMs);
      this.loadedWaiters.push(() => { clearTimeout(timer); resolve(); });
    });
  }

  /** Decides for `context` with the current policy and resolves once the decision is logged (durably). Throws a retriable error before the first policy is loaded. */
  async decide(context: ArrayLike<number>): Promise<LoggedDecision> {
    const policy = this.policy;
    if (policy === undefined) throw new VbstreamError('io', 'no policy loaded yet', { source: this.options.policyTopic }, true);
    const made = policy.decide(Float64Array.from(context));
    this.count = policy.decisions;
    const decision: LoggedDecision = {
      decisionId: made.decisionId, arm: made.arm, propensity: made.propensity, propensityMethod: made.propensityMethod, scores: Array.from(made.scores),
      context: Array.from(made.context), decidedAt: Date.now(), instance: this.instanceId, policyRewards: this.servedRewards,
    };
    await this.writer.append(this.options.decisionsTopic, 'decision', [{ key: decision.decisionId, value: JSON.stringify(decision) }]);
    const metrics = this.options.metrics;
    if (metrics !== undefined) {
      metrics.recordDecision(decision.propensity, decision.arm);
      const expected = policy.expectedRewards(made.context);
      metrics.recordEstimatedRegret(Math.max(...expected) - expected[made.arm]);
    }
    return decision;
  }

  /**
   * Writes the reward of a decision to the rewards topic, keyed by its id (so it lands on its
   * decision's partition), with acks from all in-sync replicas, and resolves once it is durable. The
   * reward is checked as the learner reads it (a finite number, or true/false for 1/0: an
   * `InputError` otherwise); whether the decision exists is the learner's to tell (unknown, duplicate
   * and late rewards go to its dead-letter topic).
   */
  async reward(decisionId: unknown, reward: unknown): Promise<void> {
    const topic = this.options.rewardsTopic;
    if (topic === undefined) throw new ConfigError('this decider has no rewardsTopic: it takes no rewards', { field: 'rewardsTopic' });
    const record = parseRewardRecord({ decisionId, reward });
    await this.writer.write(topic, 'the reward', [{ key: record.decisionId, value: JSON.stringify({ decisionId: record.decisionId, reward: record.reward }) }]);
  }

  /** Stops following the policy topic and disconnects (after the queued decisions are logged). */
  async stop(): Promise<void> {
    await this.writer.drain();
    this.writer.stop();
    await this.reader.disconnect();
    await this.producer.disconnect();
    await this.admin.disconnect();
  }

  /** Restores the newest of `messages` that restores (newest first) and swaps it in. */
  private swapIn(messages: PortMessage[]): void {
    for (let i = messages.length - 1; i >= 0; i--) {
      try {
        const { snapshot, meta } = decodeSnapshot(new Uint8Array(messages[i].value!));
        this.policy = restorePolicy(this.ownCopy(snapshot, messages[i].offset));
        this.servedRewards = typeof meta.rewards === 'number' ? meta.rewards : 0;
        this.options.metrics?.setPolicyRewards(this.servedRewards);
        this.lastOffset = Number(messages[i].offset);
        this.swaps++;
        this.options.onSwap?.(this.servedRewards, this.lastOffset);
        for (const wake of this.loadedWaiters.splice(0)) wake();
        return;
      } catch (error) {
        this.options.onError?.(error as Error);
      }
    }
  }

  /** The published snapshot with this decider's id prefix, decision counter and generator. */
  private ownCopy(snapshot: ModelSnapshot, offset: string): ModelSnapshot {
    const rng = Rng.fromSeed(seedOf(`${this.instanceId}@${offset}`));
    return { ...snapshot, header: { ...(snapshot.header as object), idPrefix: this.instanceId, decisions: this.count, rng: Array.from(rng.getState()) } };
  }
}
