import { randomUUID } from 'node:crypto';
import { DeadLetterSink } from '../../connectors/kafka/dead-letter-sink.js';
import type { DeadLetterReason } from '../../connectors/kafka/dead-letter-reason.js';
import { ensureTopic } from '../../connectors/kafka/ensure-topic.js';
import type { AdminPort, ConsumerPort, KafkaPort, PortEachBatchPayload, PortMessage, ProducerPort } from '../../connectors/kafka/kafka-port.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import type { SnapshotStore } from '../../connectors/kafka/snapshot-store.js';
import type { TopicDurability } from '../../connectors/kafka/topic-durability.js';
import type { BanditPolicy } from '../../src/bandit/bandit-policy.js';
import { restorePolicy } from '../../src/bandit/restore-policy.js';
import { ConfigError } from '../../src/core/config-error.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import type { JsonValue } from '../../src/core/model-snapshot.js';
import { optionChecks } from '../../src/core/option-checks.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import type { BanditLearnerEvent } from './bandit-learner-event.js';
import type { BanditMetrics } from './bandit-metrics.js';
import { parseLoggedDecision } from './parse-logged-decision.js';
import { parseRewardRecord, type RewardRecord } from './parse-reward-record.js';
import { PendingDecisions } from './pending-decisions.js';

/** Options of {@link BanditLearner}. */
export interface BanditLearnerOptions {
  /** Where deciders log decisions (keyed by decision id). */
  readonly decisionsTopic: string;
  /** Where rewards arrive (keyed by decision id: co-partitioned with the decisions). */
  readonly rewardsTopic: string;
  /** Snapshot keys: the learner's state under `model/learner`, the policy for the deciders under `model/global`. */
  readonly model: string;
  /** The policy of a fresh start (no state snapshot yet). */
  readonly createPolicy: () => BanditPolicy;
  /** How long a decision waits for its reward, ms from the decider's `decidedAt`. */
  readonly rewardWindowMs: number;
  /** The reward learned for a decision whose window closed without one; undefined: such a decision is dropped (not learned). */
  readonly expiredReward?: number;
  /** Rewards between state snapshots (default 1,000). */
  readonly snapshotEvery?: number;
  /** Rewards learned and not yet snapshotted are snapshotted after at most this long, ms (default 1,000): a trickle of rewards is not snapshotted one by one. */
  readonly snapshotEveryMs?: number;
  /** How often closed windows are looked for, ms (default min(1,000, window / 4)). */
  readonly expiryCheckMs?: number;
  /** Resolved decision ids remembered, to tell duplicate and late rewards from unknown ones (default 100,000). */
  readonly rememberResolved?: number;
  /** Partitions of the decisions and rewards topics when this learner creates them (default 1). */
  readonly partitions?: number;
  /** Replication of the topics this learner creates. */
  readonly topics?: TopicDurability;
  /** Where the policy for the deciders is published (default: the state store). */
  readonly policyStore?: SnapshotStore;
  /** Longest wait for the decisions topic to catch up with a reward's decision, ms (default 30,000). */
  readonly catchUpTimeoutMs?: number;
  readonly metrics?: BanditMetrics;
  readonly onEvent?: (event: BanditLearnerEvent) => void;
}

/** Header `meta` of a learner state snapshot. */
interface LearnerState {
  readonly decisionsTopic: string;
  readonly rewardsTopic: string;
  readonly decisionsOffsets: number[];
  readonly rewardsOffsets: number[];
  readonly learned: number;
  readonly pending: JsonValue;
}

/**
 * The learning side of the bandit backend: joins the decisions the deciders log with the rewards
 * that follow, by decision id, and learns each reward into one policy, exactly once across crashes.
 *
 * - Join: the decisions and rewards topics have the same partitions and are keyed by decision id,
 *   so a decision and its reward share a partition. Decisions are read into {@link PendingDecisions};
 *   rewards are applied in the order of their partition. A reward whose decision has not been read
 *   yet waits until the decisions partition is read up to its end as of then (the decider wrote the
 *   decision with acks from all replicas before anyone could know its id), so only a decision that
 *   was never logged is `unknown-decision`.
 * - State: the policy snapshot, the pending decisions, the resolved ids and the next offset of every
 *   partition of both topics go into one snapshot under `model/learner` (every `snapshotEvery`
 *   rewards, and `snapshotEveryMs` after a reward not yet snapshotted), written after the dead
 *   letters are flushed. A restart restores it
 *   and reads both topics on from its offsets, so every reward after the snapshot is applied again
 *   to the state from before it: once in all. Nothing is committed to a consumer group: the offsets
 *   in the snapshot are the only positions, as in `PartitionedLearner`.
 * - Reward window: a timer looks for pending decisions older than `rewardWindowMs` and writes an
 *   expiry marker for each to the rewards topic (its decision's partition) — with the default
 *   reward, or none when expired decisions are dropped. The marker is learned (or the decision
 *   dropped) when it is read back, in log order, so a replay after a crash sees the same sequence of
 *   rewards and expiries as the first run. A marker for a decision already resolved is skipped.
 * - Dead letters (`<topic>.dlq`, with reasons): `duplicate-reward`, `late-reward` (after the window
 *   closed), `unknown-decision`, and the parse failures (`empty`, `bad-json`, `bad-shape`, `bad-label`).
 * - The policy for the deciders is published under `model/global` after every state snapshot.
 *
 * One learner runs at a time: it reads every partition with consumers of their own group.
 */
export class BanditLearner {
  private readonly snapshotEvery: number;
  private readonly snapshotEveryMs: number;
  private readonly expiryCheckMs: number;
  private readonly remember: number;
  private readonly catchUpTimeoutMs: number;
  private policy!: BanditPolicy;
  private pending!: PendingDecisions;
  private decisionsNext: number[] = [];
  private rewardsNext: number[] = [];
  private readonly positioned = new Set<string>();
  private readonly marked = new Set<string>();
  private learnedCount = 0;
  private sinceSnapshot = 0;
  private admin: AdminPort | undefined;
  private producer: ProducerPort | undefined;
  private deadLetters: DeadLetterSink | undefined;
  private decisionsReader: ConsumerPort | undefined;
  private rewardsReader: ConsumerPort | undefined;
  private waiters: (() => void)[] = [];
  private expiryTimer: NodeJS.Timeout | undefined;
  private snapshotTimer: NodeJS.Timeout | undefined;
  private checkpoints: Promise<void> = Promise.resolve();
  private expiring: Promise<void> = Promise.resolve();
  private inflight: Promise<void> = Promise.resolve();
  private fatal: ((error: Error) => void) | undefined;
  private stopping = false;

  constructor(private readonly port: KafkaPort, private readonly store: SnapshotStore, readonly options: BanditLearnerOptions) {
    optionChecks.positive('rewardWindowMs', options.rewardWindowMs, Number.NaN);
    if (options.expiredReward !== undefined && !Number.isFinite(options.expiredReward)) throw new ConfigError('expiredReward must be a finite number (or undefined: drop)', { field: 'expiredReward', value: options.expiredReward });
    this.snapshotEvery = optionChecks.positiveInteger('snapshotEvery', options.snapshotEvery, 1_000);
    this.snapshotEveryMs = optionChecks.positive('snapshotEveryMs', options.snapshotEveryMs, 1_000);
    this.expiryCheckMs = optionChecks.positive('expiryCheckMs', options.expiryCheckMs, Math.min(1_000, options.rewardWindowMs / 4));
    this.remember = optionChecks.positiveInteger('rememberResolved', options.rememberResolved, 100_000);
    this.catchUpTimeoutMs = optionChecks.positive('catchUpTimeoutMs', options.catchUpTimeoutMs, 30_000);
  }

  /** Rewards (and expired decisions) learned into the policy, in all runs since the first. */
  get learned(): number {
    return this.learnedCount;
  }

  /** Decisions awaiting their reward. */
  get pendingCount(): number {
    return this.pending?.size ?? 0;
  }

  /** The live policy (read it, never change it). */
  get currentPolicy(): BanditPolicy {
    return this.policy;
  }

  /** Dead letters by reason. */
  deadLettersByReason(): Record<DeadLetterReason, number> | undefined {
    return this.deadLetters?.countsByReason();
  }

  /** Creates the topics if missing, restores the state, publishes the policy and starts reading. `onFatal` hears a failure that stops the learner. */
  async start(onFatal: (error: Error) => void): Promise<void> {
    this.fatal = onFatal;
    const { decisionsTopic, rewardsTopic } = this.options;
    const admin = this.port.admin();
    this.admin = admin;
    await admin.connect();
    const partitions = this.options.partitions ?? 1;
    for (const topic of [decisionsTopic, rewardsTopic]) await ensureTopic(admin, topic, { partitions, ...this.options.topics });
    const counts = await Promise.all([decisionsTopic, rewardsTopic].map(async (topic) => (await admin.fetchTopicOffsets(topic)).length));
    if (counts[0] !== counts[1]) throw new ConfigError(`${decisionsTopic} has ${counts[0]} partitions and ${rewardsTopic} ${counts[1]}: a decision and its reward must share a partition`, { field: 'partitions' });
    for (const topic of [decisionsTopic, rewardsTopic]) await ensureTopic(admin, `${topic}.dlq`, { partitions: counts[0], ...this.options.topics });
    await this.restore(counts[0]);
    this.producer = this.port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await this.producer.connect();
    this.deadLetters = new DeadLetterSink(this.producer);
    await this.publish();
    this.decisionsReader = await this.read(decisionsTopic, this.decisionsNext, (payload) => this.readDecisions(payload));
    this.rewardsReader = await this.read(rewardsTopic, this.rewardsNext, (payload) => {
      const work = this.stopping ? Promise.resolve() : this.readRewards(payload);
      this.inflight = work.catch(() => undefined);
      return work;
    });
    this.expiryTimer = setInterval(() => this.expire(), this.expiryCheckMs);
    this.expiryTimer.unref();
    this.snapshotTimer = setInterval(() => {
      if (this.sinceSnapshot > 0 && !this.stopping) this.checkpoint().catch(() => undefined); // a failure is fatal (checkpoint)
    }, this.snapshotEveryMs);
    this.snapshotTimer.unref();
  }

  /** Stops reading, snapshots the state (when rewards were learned since the last) and disconnects. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearInterval(this.expiryTimer);
    clearInterval(this.snapshotTimer);
    await this.inflight;
    await this.expiring.catch(() => undefined);
    await this.rewardsReader?.disconnect();
    await this.decisionsReader?.disconnect();
    if (this.sinceSnapshot > 0) await this.checkpoint();
    await this.checkpoints.catch(() => undefined);
    await this.producer?.disconnect();
    await this.admin?.disconnect();
  }

  private async restore(partitions: number): Promise<void> {
    const { model, decisionsTopic, rewardsTopic } = this.options;
    const bytes = await this.store.latest(`${model}/learner`);
    if (bytes === undefined) {
      this.policy = this.options.createPolicy();
      this.pending = new PendingDecisions(this.remember);
      this.decisionsNext = new Array<number>(partitions).fill(0);
      this.rewardsNext = new Array<number>(partitions).fill(0);
    } else {
      const { snapshot, meta } = decodeSnapshot(bytes);
      const state = meta as unknown as LearnerState;
      if (state.decisionsTopic !== decisionsTopic || state.rewardsTopic !== rewardsTopic || state.rewardsOffsets?.length !== partitions) {
        throw new SnapshotError(`learner state ${model}/learner is of ${state.decisionsTopic} / ${state.rewardsTopic} with ${state.rewardsOffsets?.length} partitions, not ${decisionsTopic} / ${rewardsTopic} with ${partitions}`, { source: rewardsTopic, field: 'meta' });
      }
      this.policy = restorePolicy(snapshot);
      this.pending = PendingDecisions.fromJson(state.pending, this.remember);
      this.decisionsNext = [...state.decisionsOffsets];
      this.rewardsNext = [...state.rewardsOffsets];
      this.learnedCount = state.learned;
    }
    this.options.metrics?.setPending(this.pending.size);
    this.options.onEvent?.({ type: 'restored', fromSnapshot: bytes !== undefined, rewardsOffsets: [...this.rewardsNext], decisionsOffsets: [...this.decisionsNext], pending: this.pending.size, learned: this.learnedCount });
  }

  /** A consumer of its own group over every partition of `topic`, each partition started at `next[p]` (the first batch seeks there). */
  private async read(topic: string, next: number[], handle: (payload: PortEachBatchPayload) => Promise<void>): Promise<ConsumerPort> {
    const consumer = this.port.consumer({ groupId: `vbstream-bandit-learner-${randomUUID()}`, maxWaitTimeInMs: 100 });
    await consumer.connect();
    consumer.on('consumer.crash', ({ payload }) => { if (!payload.restart && !this.stopping) this.fail(payload.error); });
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async (payload) => {
        const { partition, messages } = payload.batch;
        const key = `${topic}/${partition}`;
        if (!this.positioned.has(key)) {
          this.positioned.add(key);
          if (messages.length > 0 && Number(messages[0].offset) !== next[partition]) {
            consumer.seek({ topic, partition, offset: String(next[partition]) });
            return;
          }
        }
        await handle(payload);
      },
    });
    return consumer;
  }

  /** Decisions into the pending state (synchronously: a snapshot never sees half a batch). */
  private async readDecisions({ batch }: PortEachBatchPayload): Promise<void> {
    const p = batch.partition;
    for (const message of batch.messages) {
      if (Number(message.offset) < this.decisionsNext[p]) continue;
      try {
        const decision = parseLoggedDecision(this.json(message), this.policy.arms, this.policy.dim);
        if (this.pending.add(decision, p)) this.options.metrics?.recordDecision(decision.propensity);
      } catch (error) {
        this.deadLetter(batch.topic, p, message, error);
      }
    }
    this.decisionsNext[p] = Math.max(this.decisionsNext[p], Number(batch.lastOffset()) + 1);
    this.options.metrics?.setPending(this.pending.size);
    for (const wake of this.waiters.splice(0)) wake();
  }

  private async readRewards(payload: PortEachBatchPayload): Promise<void> {
    const { batch } = payload;
    const p = batch.partition;
    for (const message of batch.messages) {
      if (!payload.isRunning() || this.stopping) return;
      const offset = Number(message.offset);
      if (offset < this.rewardsNext[p]) continue;
      try {
        await this.reward(p, parseRewardRecord(this.json(message)), message);
      } catch (error) {
        this.deadLetter(batch.topic, p, message, error);
      }
      this.rewardsNext[p] = offset + 1;
      this.sinceSnapshot++;
      if (this.sinceSnapshot >= this.snapshotEvery) {
        await this.checkpoint();
        await payload.heartbeat();
      }
    }
    this.rewardsNext[p] = Math.max(this.rewardsNext[p], Number(batch.lastOffset()) + 1);
  }

  /** One reward (or expiry marker) against the join state. */
  private async reward(p: number, record: RewardRecord, message: PortMessage): Promise<void> {
    const id = record.decisionId;
    if (this.pending.status(id) === 'unknown' && !record.expired) await this.catchUp(p);
    const status = this.pending.status(id);
    if (record.expired) {
      if (status !== 'pending') return; // rewarded in time, or a second marker after a restart
      const { decision } = this.pending.get(id)!;
      if (record.reward !== undefined) this.learn(decision.context, decision.arm, record.reward);
      this.pending.resolve(id, 'expired');
      this.marked.delete(id);
      this.options.metrics?.recordExpired(record.reward !== undefined);
    } else if (status === 'pending') {
      const { decision } = this.pending.get(id)!;
      this.learn(decision.context, decision.arm, record.reward!);
      this.pending.resolve(id, 'rewarded');
      this.marked.delete(id);
      this.options.metrics?.recordReward(Math.max(0, Number(message.timestamp) - decision.decidedAt) / 1000, record.reward!);
    } else {
      const reason: DeadLetterReason = status === 'rewarded' ? 'duplicate-reward' : status === 'expired' ? 'late-reward' : 'unknown-decision';
      const detail = status === 'rewarded' ? `decision ${id} was rewarded already` : status === 'expired' ? `the reward window of decision ${id} had closed` : `no decision ${id} was logged (or it was resolved too long ago to be remembered)`;
      throw new Refused(reason, detail);
    }
    this.options.metrics?.setPending(this.pending.size);
  }

  /** The policy learns a reward; one it refuses with a typed error is refused as `refused-by-model`, the decision still pending. */
  private learn(context: readonly number[], arm: number, reward: number): void {
    try {
      this.policy.learn({ context: Float64Array.from(context), arm }, reward);
    } catch (error) {
      if (error instanceof VbstreamError && !error.retriable) throw new Refused('refused-by-model', error.message);
      throw error;
    }
    this.learnedCount++;
  }

  /** Waits until partition `p` of the decisions topic is read up to its end as of now. */
  private async catchUp(p: number): Promise<void> {
    const end = Number((await this.admin!.fetchTopicOffsets(this.options.decisionsTopic)).find((o) => o.partition === p)?.high ?? 0);
    const deadline = Date.now() + this.catchUpTimeoutMs;
    while (this.decisionsNext[p] < end) {
      if (Date.now() > deadline) throw new VbstreamError('io', `the decisions reader did not reach offset ${end} of partition ${p} within ${this.catchUpTimeoutMs} ms`, { source: this.options.decisionsTopic }, true);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }

  /** Writes an expiry marker for every pending decision whose window has closed (once per decision and run). */
  private expire(): void {
    if (this.stopping) return;
    this.expiring = this.expiring.then(async () => {
      const due = this.pending.due(Date.now(), this.options.rewardWindowMs).filter(({ decision }) => !this.marked.has(decision.decisionId));
      if (due.length === 0) return;
      for (const { decision } of due) this.marked.add(decision.decisionId);
      const reward = this.options.expiredReward;
      await this.producer!.send({
        topic: this.options.rewardsTopic, acks: -1,
        messages: due.map(({ decision, partition }) => ({ key: decision.decisionId, partition, value: JSON.stringify(reward === undefined ? { decisionId: decision.decisionId, expired: true } : { decisionId: decision.decisionId, expired: true, reward }) })),
      });
      this.options.onEvent?.({ type: 'expiring', decisions: due.length });
    }).catch((error: unknown) => this.fail(error));
  }

  /**
   * Snapshots the state as it is now (captured synchronously, so it is consistent: no reward is ever
   * half applied across an await) and makes it durable: dead letters flushed, then the state, then
   * the policy for the deciders. Checkpoints are written one after another, in the order asked; a
   * failed one stops the learner (`onFatal`): a restart resumes from the last durable state.
   */
  private checkpoint(): Promise<void> {
    const { model, decisionsTopic, rewardsTopic } = this.options;
    const policy = this.policy.snapshot();
    const state: LearnerState = { decisionsTopic, rewardsTopic, decisionsOffsets: [...this.decisionsNext], rewardsOffsets: [...this.rewardsNext], learned: this.learnedCount, pending: this.pending.toJson() };
    const bytes = encodeSnapshot(policy, state as unknown as { [key: string]: JsonValue });
    const published = encodeSnapshot(policy, { model, rewards: this.learnedCount, rewardsOffsets: state.rewardsOffsets });
    const pending = this.pending.size;
    this.sinceSnapshot = 0;
    const write = this.checkpoints.catch(() => undefined).then(async () => {
      await this.deadLetters!.flush();
      await this.store.save(`${model}/learner`, bytes);
      await (this.options.policyStore ?? this.store).save(snapshotKey(model, 'global'), published);
      this.options.onEvent?.({ type: 'checkpoint', rewardsOffsets: state.rewardsOffsets, decisionsOffsets: state.decisionsOffsets, pending, learned: state.learned });
    });
    this.checkpoints = write;
    write.catch((error: unknown) => this.fail(error));
    return write;
  }

  /** The policy as it stands, under `model/global` (at start, so deciders have one before the first reward). */
  private async publish(): Promise<void> {
    const { model } = this.options;
    await (this.options.policyStore ?? this.store).save(snapshotKey(model, 'global'), encodeSnapshot(this.policy.snapshot(), { model, rewards: this.learnedCount, rewardsOffsets: [...this.rewardsNext] }));
  }

  private json(message: PortMessage): unknown {
    if (message.value === null) throw new Refused('empty', 'no value');
    try {
      return JSON.parse(message.value.toString('utf8'));
    } catch (error) {
      throw new Refused('bad-json', (error as Error).message);
    }
  }

  /** A record that cannot be used to its topic's DLQ; anything that is not a refusal or a typed input error propagates. */
  private deadLetter(topic: string, partition: number, message: PortMessage, error: unknown): void {
    let reason: DeadLetterReason;
    if (error instanceof Refused) reason = error.reason;
    else if (error instanceof VbstreamError && error.kind === 'input') reason = error.location.field === 'reward' ? 'bad-label' : 'bad-shape';
    else throw error;
    this.options.metrics?.recordDeadLetter(reason);
    this.deadLetters!.add({ reason, detail: (error as Error).message, topic, partition, offset: message.offset, key: message.key, value: message.value });
  }

  private fail(error: unknown): void {
    if (this.stopping) return;
    this.fatal?.(error instanceof Error ? error : new Error(String(error)));
  }
}

/** A record refused with a dead-letter reason. */
class Refused extends Error {
  constructor(readonly reason: DeadLetterReason, detail: string) {
    super(detail);
  }
}
