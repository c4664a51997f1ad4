import { randomUUID } from 'node:crypto';
import { DeadLetterSink } from '../../connectors/kafka/dead-letter-sink.js';
import type { DeadLetterReason } from '../../connectors/kafka/dead-letter-reason.js';
import { ensureTopic } from '../../connectors/kafka/ensure-topic.js';
import type { AdminPort, ConsumerPort, KafkaPort, PortEachBatchPayload, PortMessage, ProducerPort } from '../../connectors/kafka/kafka-port.js';
import { KafkaSource, type SourceBatch } from '../../connectors/kafka/kafka-source.js';
import type { SnapshotStore } from '../../connectors/kafka/snapshot-store.js';
import type { TopicDurability } from '../../connectors/kafka/topic-durability.js';
import type { BanditPolicy } from '../../src/bandit/bandit-policy.js';
import { mergePolicy } from '../../src/bandit/merge-policy.js';
import { ConfigError } from '../../src/core/config-error.js';
import { optionChecks } from '../../src/core/option-checks.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import type { BanditLearnerEvent } from './bandit-learner-event.js';
import type { BanditMetrics } from './bandit-metrics.js';
import { BanditPartition } from './bandit-partition.js';
import { BanditPolicyCombiner } from './bandit-policy-combiner.js';
import { parseLoggedDecision } from './parse-logged-decision.js';
import { parseRewardRecord, type RewardRecord } from './parse-reward-record.js';
import { PartitionStateStore } from './partition-state-store.js';
import { PendingDecisions } from './pending-decisions.js';

/** Options of {@link BanditLearner}. */
export interface BanditLearnerOptions {
  /** Where deciders log decisions (keyed by decision id). */
  readonly decisionsTopic: string;
  /** Where rewards arrive (keyed by decision id: co-partitioned with the decisions). */
  readonly rewardsTopic: string;
  /** Snapshot keys: each partition's state under `model/learner/<partition>`, the merged policy for the deciders under `model/global`. */
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
  /** Resolved decision ids remembered per partition, to tell duplicate and late rewards from unknown ones (default 100,000). */
  readonly rememberResolved?: number;
  /** Partitions of the decisions and rewards topics when this learner creates them (default 1). */
  readonly partitions?: number;
  /** Replication of the topics this learner creates. */
  readonly topics?: TopicDurability;
  /** Where the policy for the deciders is published (default: the state store). */
  readonly policyStore?: SnapshotStore;
  /** Longest wait for the decisions topic to catch up with a reward's decision, ms (default 30,000). */
  readonly catchUpTimeoutMs?: number;
  /** Consumer group of the learner instances that share the topics (default `vbstream-bandit-learner.<rewardsTopic>.<model>`): the partitions are spread over its members. */
  readonly groupId?: string;
  /** Consumer-group session timeout: how long a crashed instance holds its partitions, ms (default 30,000). */
  readonly sessionTimeoutMs?: number;
  /** Largest state record written, bytes (default 1,000,000): a partition's pending decisions are cut into records of at most this. */
  readonly maxStateRecordBytes?: number;
  readonly metrics?: BanditMetrics;
  readonly onEvent?: (event: BanditLearnerEvent) => void;
}

/**
 * The learning side of the bandit backend: joins the decisions the deciders log with the rewards
 * that follow, by decision id, and learns each reward exactly once across crashes and rebalances.
 * Any number of instances share the work in one consumer group (`groupId`).
 *
 * - Partitions: the decisions and rewards topics have the same partitions and are keyed by decision
 *   id, so a decision and its reward share a partition. The group spreads the rewards topic's
 *   partitions over the instances; an instance reads the decisions partitions of the rewards
 *   partitions it owns (its own consumer of the decisions topic, the others paused). Every partition
 *   has its own state ({@link BanditPartition}): its own policy (this partition's rewards only), its
 *   pending decisions and resolved ids, and both topics' next offsets. After every group join each
 *   assigned partition is restored from its latest state and both topics are read on from its
 *   offsets; a revoked one is dropped unsnapshotted. A rebalance or a crash therefore moves a
 *   partition with its state: the new owner applies every reward after that state again to it, so
 *   each reward is in the state once (the offsets in the state are the positions; the group's
 *   committed offsets only spare a long seek).
 * - Join: decisions are read into the partition's {@link PendingDecisions}; rewards are applied in
 *   the order of their partition. A reward whose decision has not been read yet waits until the
 *   decisions partition is read up to its end as of then (the decider wrote the decision with acks
 *   from all replicas before anyone could know its id), so only a decision that was never logged is
 *   `unknown-decision`.
 * - State ({@link PartitionStateStore}): a partition's state is written every `snapshotEvery`
 *   rewards of it, and `snapshotEveryMs` after a reward not yet snapshotted, after the dead letters
 *   are flushed, and only while this instance owns the partition; its pending decisions go into
 *   chunks of at most `maxStateRecordBytes`, committed by the partition's head record.
 * - Reward window: a timer looks for pending decisions older than `rewardWindowMs` and writes an
 *   expiry marker for each to the rewards topic (its decision's partition) — with the default
 *   reward, or none when expired decisions are dropped. The marker is learned (or the decision
 *   dropped) when it is read back, in log order, so a replay (after a crash, at the next owner) sees
 *   the same sequence of rewards and expiries as the first run. A marker for a decision already
 *   resolved is skipped. Deadlines are the deciders' `decidedAt`, so they hold across a move.
 * - Dead letters (`<topic>.dlq`, with reasons): `duplicate-reward`, `late-reward` (after the window
 *   closed), `unknown-decision`, and the parse failures (`empty`, `bad-json`, `bad-shape`, `bad-label`).
 * - The policy for the deciders ({@link BanditPolicyCombiner}): after every state written, the
 *   latest durable state of every partition, merged, under `model/global`. With more than one
 *   partition the policy must merge (`mergePolicy`: Thompson and ε-greedy over families with
 *   `merge`), else `start` throws a `ConfigError`.
 */
export class BanditLearner {
  private readonly snapshotEvery: number;
  private readonly snapshotEveryMs: number;
  private readonly expiryCheckMs: number;
  private readonly remember: number;
  private readonly catchUpTimeoutMs: number;
  private readonly maxStateRecordBytes: number;
  private readonly parts = new Map<number, BanditPartition>();
  private readonly restoring = new Map<number, { generation: number; part: Promise<BanditPartition> }>();
  private states!: PartitionStateStore;
  private combiner!: BanditPolicyCombiner;
  private admin: AdminPort | undefined;
  private producer: ProducerPort | undefined;
  private deadLetters: DeadLetterSink | undefined;
  private decisionsReader: ConsumerPort | undefined;
  private source: KafkaSource | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private snapshotTimer: NodeJS.Timeout | undefined;
  private expiring: Promise<void> = Promise.resolve();
  private inflight: Promise<void> = Promise.resolve();
  private publishing: Promise<void> = Promise.resolve();
  private publishQueued = false;
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
    this.maxStateRecordBytes = optionChecks.positiveInteger('maxStateRecordBytes', options.maxStateRecordBytes, 1_000_000);
    if (options.sessionTimeoutMs !== undefined) optionChecks.positive('sessionTimeoutMs', options.sessionTimeoutMs, Number.NaN);
  }

  /** Rewards (and expired decisions) learned into the policies of the partitions this instance owns, in all runs since the first. */
  get learned(): number {
    let learned = 0;
    for (const part of this.parts.values()) if (part.live) learned += part.learned;
    return learned;
  }

  /** Decisions awaiting their reward at the partitions this instance owns. */
  get pendingCount(): number {
    let pending = 0;
    for (const part of this.parts.values()) if (part.live) pending += part.pending.size;
    return pending;
  }

  /** The partitions this instance owns and has restored. */
  get partitions(): number[] {
    return [...this.parts.values()].filter((part) => part.live).map((part) => part.partition).sort((a, b) => a - b);
  }

  /** The policy of the partitions this instance owns: one partition's own policy (live: read it, never change it), or several merged into a fresh one. */
  get currentPolicy(): BanditPolicy {
    const owned = this.partitions.map((p) => this.parts.get(p)!.policy);
    if (owned.length === 1) return owned[0];
    const merged = this.options.createPolicy();
    for (const policy of owned) mergePolicy(merged, policy);
    return merged;
  }

  /** Dead letters by reason. */
  deadLettersByReason(): Record<DeadLetterReason, number> | undefined {
    return this.deadLetters?.countsByReason();
  }

  /** Creates the topics if missing, publishes the merged policy, joins the group and starts reading. `onFatal` hears a failure that stops the learner. */
  async start(onFatal: (error: Error) => void): Promise<void> {
    this.fatal = onFatal;
    const { decisionsTopic, rewardsTopic, model, createPolicy } = this.options;
    const admin = this.port.admin();
    this.admin = admin;
    await admin.connect();
    for (const topic of [decisionsTopic, rewardsTopic]) await ensureTopic(admin, topic, { partitions: this.options.partitions ?? 1, ...this.options.topics });
    const counts = await Promise.all([decisionsTopic, rewardsTopic].map(async (topic) => (await admin.fetchTopicOffsets(topic)).length));
    if (counts[0] !== counts[1]) throw new ConfigError(`${decisionsTopic} has ${counts[0]} partitions and ${rewardsTopic} ${counts[1]}: a decision and its reward must share a partition`, { field: 'partitions' });
    for (const topic of [decisionsTopic, rewardsTopic]) await ensureTopic(admin, `${topic}.dlq`, { partitions: counts[0], ...this.options.topics });
    this.states = new PartitionStateStore(this.store, { model, decisionsTopic, rewardsTopic, maxRecordBytes: this.maxStateRecordBytes, remember: this.remember });
    this.combiner = new BanditPolicyCombiner(this.states, { model, partitions: counts[0], createPolicy });
    this.producer = this.port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await this.producer.connect();
    this.deadLetters = new DeadLetterSink(this.producer);
    await this.publish();
    const reader = this.port.consumer({ groupId: `vbstream-bandit-decisions-${randomUUID()}`, maxWaitTimeInMs: 100 });
    this.decisionsReader = reader;
    await reader.connect();
    reader.on('consumer.crash', ({ payload }) => { if (!payload.restart) this.fail(payload.error); });
    await reader.subscribe({ topics: [decisionsTopic], fromBeginning: true });
    await reader.run({ autoCommit: false, eachBatch: async (payload) => this.readDecisions(payload) });
    const source = new KafkaSource(this.port, { topic: rewardsTopic, groupId: this.options.groupId ?? `vbstream-bandit-learner.${rewardsTopic}.${model}`, sessionTimeoutMs: this.options.sessionTimeoutMs });
    this.source = source;
    source.onAssignment((partitions, generation) => this.assigned(partitions, generation));
    await source.start((batch) => {
      const work = this.stopping ? Promise.resolve() : this.readRewards(batch).catch((error: unknown) => {
        if (error instanceof VbstreamError && !error.retriable) this.fail(error);
        else if (!this.stopping) throw error;
      });
      this.inflight = work.catch(() => undefined);
      return work;
    }, (error) => this.fail(error));
    this.expiryTimer = setInterval(() => this.expire(), this.expiryCheckMs);
    this.expiryTimer.unref();
    this.snapshotTimer = setInterval(() => {
      if (this.stopping) return;
      for (const part of this.parts.values()) if (part.sinceSnapshot > 0) this.checkpoint(part).catch(() => undefined); // a failure is fatal (checkpoint)
    }, this.snapshotEveryMs);
    this.snapshotTimer.unref();
  }

  /** Stops reading, writes the state of every owned partition with rewards since its last, publishes the merged policy, leaves the group and disconnects. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearInterval(this.expiryTimer);
    clearInterval(this.snapshotTimer);
    for (const part of this.parts.values()) part.wake();
    await this.inflight;
    await this.expiring.catch(() => undefined);
    await this.decisionsReader?.disconnect();
    const owned = [...this.parts.values()].filter((part) => this.owns(part));
    const written = await Promise.allSettled(owned.map((part) => (part.sinceSnapshot > 0 ? this.checkpoint(part) : part.checkpoints)));
    await this.publishing.catch(() => undefined);
    for (const part of this.parts.values()) part.retire();
    await this.source?.stop();
    await this.producer?.disconnect();
    await this.admin?.disconnect();
    const failed = written.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  /** After a group join: drops revoked partitions and restores every assigned one. */
  private assigned(partitions: readonly number[], generation: number): void {
    for (const [p, part] of [...this.parts]) {
      if (!partitions.includes(p)) {
        this.parts.delete(p);
        part.retire();
        this.decisionsReader?.pause([{ topic: this.options.decisionsTopic, partitions: [p] }]);
      }
    }
    this.options.onEvent?.({ type: 'assigned', partitions, generation });
    for (const p of partitions) this.partOf(p, generation).catch(() => undefined); // a failed restore fails that partition's next batch
  }

  private partOf(p: number, generation: number): Promise<BanditPartition> {
    const current = this.restoring.get(p);
    if (current !== undefined && current.generation === generation) return current.part;
    const part = this.restore(p, generation);
    const entry = { generation, part };
    this.restoring.set(p, entry);
    part.catch(() => { if (this.restoring.get(p) === entry) this.restoring.delete(p); });
    return part;
  }

  /** A partition's latest state (or a fresh one), live from now on, its decisions partition read on from the state's offset. */
  private async restore(p: number, generation: number): Promise<BanditPartition> {
    const previous = this.parts.get(p);
    if (previous !== undefined) {
      previous.retire();
      await previous.checkpoints.catch(() => undefined);
    }
    const restored = await this.states.read(p, this.combiner.options.partitions);
    const part = new BanditPartition(p, generation, restored ?? { policy: this.options.createPolicy(), pending: new PendingDecisions(this.remember), decisionsNext: 0, rewardsNext: 0, learned: 0 });
    if (this.restoring.get(p)?.generation !== generation || this.source?.generation !== generation || this.stopping) {
      part.retire(); // superseded by a newer group join while restoring
      return part;
    }
    this.parts.set(p, part);
    this.seekDecisions(part);
    this.decisionsReader?.resume([{ topic: this.options.decisionsTopic, partitions: [p] }]);
    this.setPending();
    this.options.onEvent?.({ type: 'restored', partition: p, fromSnapshot: restored !== undefined, rewardsOffset: part.rewardsNext, decisionsOffset: part.decisionsNext, pending: part.pending.size, learned: part.learned });
    return part;
  }

  private seekDecisions(part: BanditPartition): void {
    if (part.decisionsSoughtTo !== part.decisionsNext) part.decisionsSeeks = 0;
    part.decisionsSoughtTo = part.decisionsNext;
    part.decisionsSeeks++;
    this.decisionsReader?.seek({ topic: this.options.decisionsTopic, partition: part.partition, offset: String(part.decisionsNext) });
  }

  /** Whether this instance still owns the partition at the generation it was restored for. */
  private owns(part: BanditPartition): boolean {
    return part.live && this.source !== undefined && this.source.generation === part.generation && this.source.assigned.includes(part.partition);
  }

  /**
   * Decisions into their partition's pending state (synchronously: a snapshot never sees half a
   * batch). A partition this instance does not own is paused; a batch that starts past the
   * partition's next offset (fetched before the restore's seek) is fetched again from there.
   */
  private async readDecisions({ batch }: PortEachBatchPayload): Promise<void> {
    const p = batch.partition;
    const part = this.parts.get(p);
    if (part === undefined || !part.live) {
      this.decisionsReader?.pause([{ topic: batch.topic, partitions: [p] }]);
      return;
    }
    if (batch.messages.length > 0 && Number(batch.messages[0].offset) > part.decisionsNext && part.decisionsSeeks < 3) {
      this.seekDecisions(part);
      return;
    }
    for (const message of batch.messages) {
      if (Number(message.offset) < part.decisionsNext) continue;
      try {
        const decision = parseLoggedDecision(this.json(message), part.policy.arms, part.policy.dim);
        if (part.pending.add(decision, p)) this.options.metrics?.recordDecision(decision.propensity, decision.arm);
      } catch (error) {
        this.deadLetter(batch.topic, p, message, error);
      }
    }
    part.decisionsNext = Math.max(part.decisionsNext, Number(batch.lastOffset()) + 1);
    this.setPending();
    part.wake();
  }

  /** A batch of rewards of one partition, applied in order to the partition's state restored for the batch's generation. */
  private async readRewards(batch: SourceBatch): Promise<void> {
    const p = batch.partition;
    const part = await this.partOf(p, batch.generation);
    if (!part.live || this.stopping) return;
    const first = Number(batch.messages[0].offset);
    const next = part.rewardsNext;
    // The first batch after a restore starts where the state ends; a later one past the next offset
    // is fetched again from there, once. Rewards below the next offset are in the state already.
    if (part.rewardsSoughtTo !== next && (part.rewardsPositioned ? first > next : first !== next)) {
      part.rewardsPositioned = true;
      part.rewardsSoughtTo = next;
      this.source!.seek(p, next);
      return;
    }
    part.rewardsPositioned = true;
    for (const message of batch.messages) {
      if (!batch.active() || !part.live || this.stopping) return;
      const offset = Number(message.offset);
      if (offset >= part.rewardsNext) {
        try {
          await this.reward(part, parseRewardRecord(this.json(message)), message);
        } catch (error) {
          if (error instanceof Superseded) return;
          this.deadLetter(batch.topic, p, message, error);
        }
        part.rewardsNext = offset + 1;
        part.sinceSnapshot++;
      }
      batch.resolve(message.offset);
      if (part.sinceSnapshot >= this.snapshotEvery) {
        await this.checkpoint(part);
        await batch.heartbeat();
      }
    }
  }

  /** One reward (or expiry marker) against the partition's join state. */
  private async reward(part: BanditPartition, record: RewardRecord, message: PortMessage): Promise<void> {
    const id = record.decisionId;
    const { pending } = part;
    if (pending.status(id) === 'unknown' && !record.expired) await this.catchUp(part);
    const status = pending.status(id);
    if (record.expired) {
      if (status !== 'pending') return; // rewarded in time, or a second marker after a restart
      const { decision } = pending.get(id)!;
      if (record.reward !== undefined) this.learn(part, decision.context, decision.arm, record.reward);
      pending.resolve(id, 'expired');
      part.marked.delete(id);
      this.options.metrics?.recordExpired(record.reward !== undefined);
    } else if (status === 'pending') {
      const { decision } = pending.get(id)!;
      this.learn(part, decision.context, decision.arm, record.reward!);
      pending.resolve(id, 'rewarded');
      part.marked.delete(id);
      this.options.metrics?.recordReward(Math.max(0, Number(message.timestamp) - decision.decidedAt) / 1000, record.reward!);
    } else {
      const reason: DeadLetterReason = status === 'rewarded' ? 'duplicate-reward' : status === 'expired' ? 'late-reward' : 'unknown-decision';
      const detail = status === 'rewarded' ? `decision ${id} was rewarded already` : status === 'expired' ? `the reward window of decision ${id} had closed` : `no decision ${id} was logged (or it was resolved too long ago to be remembered)`;
      throw new Refused(reason, detail);
    }
    this.setPending();
  }

  /** The partition's policy learns a reward; one it refuses with a typed error is refused as `refused-by-model`, the decision still pending. */
  private learn(part: BanditPartition, context: readonly number[], arm: number, reward: number): void {
    try {
      part.policy.learn({ context: Float64Array.from(context), arm }, reward);
    } catch (error) {
      if (error instanceof VbstreamError && !error.retriable) throw new Refused('refused-by-model', error.message);
      throw error;
    }
    part.learned++;
  }

  /** Waits until the partition's decisions are read up to the topic's end as of now; throws {@link Superseded} once the partition is no longer this instance's. */
  private async catchUp(part: BanditPartition): Promise<void> {
    const end = Number((await this.admin!.fetchTopicOffsets(this.options.decisionsTopic)).find((o) => o.partition === part.partition)?.high ?? 0);
    const deadline = Date.now() + this.catchUpTimeoutMs;
    while (part.decisionsNext < end) {
      if (!part.live || this.stopping) throw new Superseded();
      if (Date.now() > deadline) throw new VbstreamError('io', `the decisions reader did not reach offset ${end} of partition ${part.partition} within ${this.catchUpTimeoutMs} ms`, { source: this.options.decisionsTopic }, true);
      await part.nextRead(100);
    }
    if (!part.live || this.stopping) throw new Superseded();
  }

  /** Writes an expiry marker for every pending decision of an owned partition whose window has closed (once per decision and restore). */
  private expire(): void {
    if (this.stopping) return;
    this.expiring = this.expiring.then(async () => {
      const now = Date.now();
      const due = [...this.parts.values()].filter((part) => part.live).flatMap((part) => part.pending.due(now, this.options.rewardWindowMs).filter(({ decision }) => !part.marked.has(decision.decisionId)).map((entry) => ({ part, ...entry })));
      if (due.length === 0) return;
      for (const { part, decision } of due) part.marked.add(decision.decisionId);
      const reward = this.options.expiredReward;
      await this.producer!.send({
        topic: this.options.rewardsTopic, acks: -1,
        messages: due.map(({ decision, partition }) => ({ key: decision.decisionId, partition, value: JSON.stringify(reward === undefined ? { decisionId: decision.decisionId, expired: true } : { decisionId: decision.decisionId, expired: true, reward }) })),
      });
      this.options.onEvent?.({ type: 'expiring', decisions: due.length });
    }).catch((error: unknown) => this.fail(error));
  }

  /**
   * Writes the partition's state as it is now (captured synchronously, so it is consistent: no
   * reward is ever half applied across an await) while this instance owns it: dead letters flushed,
   * then the state, then the merged policy for the deciders. A partition's writes go one after
   * another, in the order asked; a failed one stops the learner (`onFatal`): a restart (or the
   * partition's next owner) resumes from the last durable state.
   */
  private checkpoint(part: BanditPartition): Promise<void> {
    if (!this.owns(part)) return part.checkpoints;
    const encoded = this.states.encode(part.partition, part);
    const summary = { type: 'checkpoint' as const, partition: part.partition, rewardsOffset: part.rewardsNext, decisionsOffset: part.decisionsNext, pending: part.pending.size, learned: part.learned, chunks: encoded.chunks.length };
    part.sinceSnapshot = 0;
    const write = part.checkpoints.catch(() => undefined).then(async () => {
      await this.deadLetters!.flush();
      await this.states.write(encoded);
      this.options.onEvent?.(summary);
      this.source?.commit(summary.partition, summary.rewardsOffset).catch(() => undefined); // a head start for the next owner's fetch; the state holds the position
      void this.publish();
    });
    part.checkpoints = write;
    write.catch((error: unknown) => this.fail(error));
    return write;
  }

  /** Combines the latest durable state of every partition and publishes it under `model/global`; asked again while one runs, one more runs after it. */
  private publish(): Promise<void> {
    if (this.publishQueued) return this.publishing;
    this.publishQueued = true;
    const run = this.publishing.catch(() => undefined).then(async () => {
      this.publishQueued = false;
      const combined = await this.combiner.combine();
      await this.combiner.publish(this.options.policyStore ?? this.store, combined);
      this.options.onEvent?.({ type: 'published', partitions: combined.partitions, pending: combined.pending, learned: combined.learned });
    });
    this.publishing = run;
    run.catch((error: unknown) => this.fail(error));
    return run;
  }

  private setPending(): void {
    this.options.metrics?.setPending(this.pendingCount);
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

/** The partition was revoked, superseded or the learner stops while a reward of it waited: the reward is left for the partition's next owner. */
class Superseded extends Error {}

/** A record refused with a dead-letter reason. */
class Refused extends Error {
  constructor(readonly reason: DeadLetterReason, detail: string) {
    super(detail);
  }
}
