import { randomUUID } from 'node:crypto';
import type { Readiness } from '../../../monitoring/readiness.js';
import { ConfigError } from '../../../src/core/config-error.js';
import type { JsonValue } from '../../../src/core/model-snapshot.js';
import { optionChecks } from '../../../src/core/option-checks.js';
import { VbstreamError } from '../../../src/core/vbstream-error.js';
import { AssignmentRestores } from '../assignment-restores.js';
import { batchWork } from '../batch-work.js';
import { BrokerOutage } from '../broker-outage.js';
import { brokerPulse } from '../broker-pulse.js';
import type { DeadLetterReason } from '../dead-letter-reason.js';
import { DeadLetterSink } from '../dead-letter-sink.js';
import { ensureTopic } from '../ensure-topic.js';
import type { AdminPort, ConsumerPort, KafkaPort, PortEachBatchPayload, PortMessage, ProducerPort } from '../kafka-port.js';
import { KafkaSource, type SourceBatch } from '../kafka-source.js';
import { LearnerLifecycle } from '../learner-lifecycle.js';
import { learnerTimingsOf, type LearnerTimings } from '../learner-timings.js';
import { snapshotKey } from '../snapshot-key.js';
import { stopWithinDeadline } from '../stop-within-deadline.js';
import type { SnapshotStore } from '../snapshot-store.js';
import type { TopicDurability } from '../topic-durability.js';
import { writeWithin } from '../write-within.js';
import { JoinModelCombiner } from './join-model-combiner.js';
import { JoinPartition } from './join-partition.js';
import { JoinRefusal } from './join-refusal.js';
import { PendingJoins, type JoinStatus } from './pending-joins.js';
import { JoinStateStore, type EncodedJoinState } from './join-state-store.js';
import type { KeyedJoin } from './keyed-join.js';
import type { KeyedJoinEvent } from './keyed-join-event.js';
import { parseOutcomeRecord, type OutcomeRecord } from './parse-outcome-record.js';

/** Options of {@link KeyedJoinLearner}. */
export interface KeyedJoinLearnerOptions {
  /** Where the logged records are (keyed by id). */
  readonly loggedTopic: string;
  /** Where the outcomes arrive (keyed by id: co-partitioned with the logged records). */
  readonly outcomesTopic: string;
  /** Snapshot keys: each partition's state under `model/learner/<partition>`, the merged model under `model/global`. */
  readonly model: string;
  /** Consumer group of the instances that share the topics: the partitions are spread over its members. */
  readonly groupId: string;
  /** How long a logged record waits for its outcome, ms from its time (`KeyedJoin.timeOf`). */
  readonly windowMs: number;
  /** The value learned for a record whose window closed without an outcome; undefined: such a record is dropped (not learned). */
  readonly expiredValue?: number;
  /** Outcomes between state snapshots of a partition (default 1,000). */
  readonly snapshotEvery?: number;
  /** Outcomes learned and not yet snapshotted are snapshotted after at most this long, ms (default 1,000). */
  readonly snapshotEveryMs?: number;
  /** How often closed windows are looked for, ms (default min(1,000, window / 4)). */
  readonly expiryCheckMs?: number;
  /** Resolved ids remembered per partition, to tell duplicate and late outcomes from unknown ones (default 100,000). */
  readonly rememberResolved?: number;
  /** Partitions of the two topics when this learner creates them (default 1). */
  readonly partitions?: number;
  /** Replication of the topics this learner creates. */
  readonly topics?: TopicDurability;
  /** Where the merged model is published (default: the state store). */
  readonly globalStore?: SnapshotStore;
  /** Longest wait for the logged topic to catch up with an outcome's record, ms (default 30,000). */
  readonly catchUpTimeoutMs?: number;
  /** Consumer-group session timeout: how long a crashed instance holds its partitions, ms (default 30,000). */
  readonly sessionTimeoutMs?: number;
  /** Largest state record written, bytes (default 1,000,000): a partition's pending records are cut into records of at most this. */
  readonly maxStateRecordBytes?: number;
  /** Longest Kafka outage ridden out (readiness false, writes retried with backoff) before the learner stops with an error, ms (default 300,000). */
  readonly maxOutageMs?: number;
  /** Longest one attempt of a write (dead letters, state, expiry markers, the merged model) may take before it is tried again, ms (default 60,000). */
  readonly writeTimeoutMs?: number;
  /** How often the outcomes topic's end offsets are read, as the brokers' pulse while idle, ms (default 1,000). */
  readonly watchMs?: number;
  /** Longest {@link KeyedJoinLearner.stop} may take before it gives up and rejects, ms (default 30,000). */
  readonly shutdownTimeoutMs?: number;
  /** Conditions kept current when given: `model-restored` (every assigned partition restored), `source-consuming`, `brokers-reachable` (false during an outage). */
  readonly readiness?: Readiness;
  readonly onEvent?: (event: KeyedJoinEvent) => void;
}

/** How long, after {@link KeyedJoinLearner.stop} gave up, the consumers and the producer get to close, ms. */
const CLOSE_GRACE_MS = 2_000;

/** The partition was revoked, superseded or the learner stops while an outcome of it waited: the outcome is left for the partition's next owner. */
class Superseded extends Error {}

/**
 * One keyed-join learner runtime on Kafka: logged records on one topic, outcomes keyed by the same
 * id on a co-partitioned topic, joined within a window, each outcome learned exactly once across
 * crashes and rebalances into a per-partition model, and the partitions' models merged and
 * published under `model/global`. What is joined and learned is the {@link KeyedJoin}'s: the bandit
 * learner (a reward joined to a logged decision) and the outcome learner (a label joined to a logged
 * prediction) run on it. Any number of instances share the work in one consumer group.
 *
 * - Partitions: the two topics have the same partitions and are keyed by id, so a record and its
 *   outcome share a partition. The group spreads the outcomes topic's partitions over the
 *   instances; an instance reads the logged partitions of the outcomes partitions it owns (its own
 *   consumer of the logged topic, the others paused). Every partition has its own state
 *   ({@link JoinPartition}): its own model (this partition's outcomes only), its pending records and
 *   resolved ids, and both topics' next offsets. After every group join every assigned partition is
 *   restored from its latest state before any outcome is applied (a restore that fails for good
 *   stops the learner), and both topics are read on from its offsets; a revoked one is dropped
 *   unsnapshotted. A rebalance or a crash therefore moves a partition with its state: the new owner
 *   applies every outcome after that state again to it, so each outcome is in the state once (the
 *   offsets in the state are the positions; the group's committed offsets only spare a long seek).
 * - Join: logged records are read into the partition's {@link PendingJoins}; outcomes are applied in
 *   the order of their partition. An outcome whose record has not been read yet waits until the
 *   logged partition is read up to its end as of then (the record was logged with acks from all
 *   replicas before anyone could know its id), so only a record that was never logged is unknown.
 * - State ({@link JoinStateStore}): a partition's state is written every `snapshotEvery` outcomes of
 *   it, and `snapshotEveryMs` after an outcome not yet snapshotted, after the dead letters are
 *   flushed, and only while this instance owns the partition; its pending records go into chunks of
 *   at most `maxStateRecordBytes`, committed by the partition's head record.
 * - Window: a timer looks for pending records older than `windowMs` and writes an expiry marker for
 *   each to the outcomes topic (its record's partition) — with the default value, or none when
 *   expired records are dropped. The marker is learned (or the record dropped) when it is read back,
 *   in log order, so a replay (after a crash, at the next owner) sees the same sequence of outcomes
 *   and expiries as the first run. A marker for a record already resolved is skipped.
 * - Dead letters (`<topic>.dlq`, with reasons): the vocabulary's duplicate, late and unknown
 *   reasons, `refused-by-model`, the join's own refusals, and the parse failures (`empty`,
 *   `bad-json`, `bad-shape`, `bad-label`).
 * - The merged model ({@link JoinModelCombiner}): after every state written, the latest durable
 *   state of every partition, merged, under `model/global`. With more than one partition the model
 *   must merge, else `start` throws the join's `ConfigError`.
 * - Outages and shutdown, as `PartitionedLearner`'s: a Kafka outage is ridden out for `maxOutageMs`
 *   ({@link BrokerOutage}: readiness false, one event per change; starting, restores and every write
 *   retried with backoff, each attempt within `writeTimeoutMs`), then stops the learner; `stop`
 *   ends within `shutdownTimeoutMs` whatever the brokers do.
 */
export class KeyedJoinLearner<L, M> {
  private readonly snapshotEvery: number;
  private readonly snapshotEveryMs: number;
  private readonly expiryCheckMs: number;
  private readonly remember: number;
  private readonly catchUpTimeoutMs: number;
  private readonly maxStateRecordBytes: number;
  private readonly timings: LearnerTimings;
  private readonly outage: BrokerOutage;
  private readonly parts = new Map<number, JoinPartition<L, M>>();
  /** The restore of every partition assigned at a generation: outcome batches wait for it. */
  private readonly restores: AssignmentRestores<JoinPartition<L, M>>;
  private states!: JoinStateStore<L, M>;
  private combiner!: JoinModelCombiner<L, M>;
  private admin: AdminPort | undefined;
  private producer: ProducerPort | undefined;
  private deadLetters: DeadLetterSink | undefined;
  private loggedReader: ConsumerPort | undefined;
  private source: KafkaSource | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private snapshotTimer: NodeJS.Timeout | undefined;
  private watching: Promise<void> | undefined;
  private readonly watchWaker: { wake?: () => void } = {};
  private expiring: Promise<void> = Promise.resolve();
  private inflight: Promise<void> = Promise.resolve();
  private publishing: Promise<void> = Promise.resolve();
  private publishQueued = false;
  private readonly life = new LearnerLifecycle();

  constructor(private readonly port: KafkaPort, private readonly store: SnapshotStore, readonly join: KeyedJoin<L, M>, readonly options: KeyedJoinLearnerOptions) {
    optionChecks.positive('windowMs', options.windowMs, Number.NaN);
    if (options.expiredValue !== undefined) optionChecks.finite('expiredValue', options.expiredValue, Number.NaN);
    this.snapshotEvery = optionChecks.positiveInteger('snapshotEvery', options.snapshotEvery, 1_000);
    this.snapshotEveryMs = optionChecks.positive('snapshotEveryMs', options.snapshotEveryMs, 1_000);
    this.expiryCheckMs = optionChecks.positive('expiryCheckMs', options.expiryCheckMs, Math.min(1_000, options.windowMs / 4));
    this.remember = optionChecks.positiveInteger('rememberResolved', options.rememberResolved, 100_000);
    this.catchUpTimeoutMs = optionChecks.positive('catchUpTimeoutMs', options.catchUpTimeoutMs, 30_000);
    this.maxStateRecordBytes = optionChecks.positiveInteger('maxStateRecordBytes', options.maxStateRecordBytes, 1_000_000);
    this.timings = learnerTimingsOf(options);
    if (options.sessionTimeoutMs !== undefined) optionChecks.positive('sessionTimeoutMs', options.sessionTimeoutMs, Number.NaN);
    const maxOutageMs = optionChecks.positive('maxOutageMs', options.maxOutageMs, 300_000);
    const { readiness } = options;
    this.outage = new BrokerOutage({
      maxOutageMs,
      changed: (change) => {
        readiness?.set('brokers-reachable', change.type === 'brokers-reachable', change.type === 'brokers-unreachable' ? `${change.what}: ${change.reason}` : undefined);
        options.onEvent?.(change);
      },
      expired: (error) => this.fail(error),
    });
    this.restores = new AssignmentRestores({
      restore: (p, generation) => this.restore(p, generation), outage: this.outage, readiness,
      generation: () => this.source?.generation, stopping: () => this.life.stopping, fail: (error) => this.fail(error),
    });
    for (const condition of ['model-restored', 'source-consuming', 'brokers-reachable']) readiness?.require(condition);
    readiness?.set('brokers-reachable'); // until an operation fails
  }

  /** Outcomes (and expired records) learned into the models of the partitions this instance owns, in all runs since the first. */
  get learned(): number {
    let learned = 0;
    for (const part of this.parts.values()) if (part.live) learned += part.learned;
    return learned;
  }

  /** Logged records awaiting their outcome at the partitions this instance owns. */
  get pendingCount(): number {
    let pending = 0;
    for (const part of this.parts.values()) if (part.live) pending += part.pending.size;
    return pending;
  }

  /** The partitions this instance owns and has restored. */
  get partitions(): number[] {
    return [...this.parts.values()].filter((part) => part.live).map((part) => part.partition).sort((a, b) => a - b);
  }

  /** The models of the partitions this instance owns, in partition order (live: read them, never change them). */
  get models(): M[] {
    return this.partitions.map((p) => this.parts.get(p)!.model);
  }

  /** Whether the brokers are unreachable now (an outage being ridden out). */
  get brokersDown(): boolean {
    return this.outage.down;
  }

  /** Dead letters by reason. */
  deadLettersByReason(): Record<DeadLetterReason, number> | undefined {
    return this.deadLetters?.countsByReason();
  }

  /**
   * Creates the topics if missing, publishes the merged model, joins the group and starts reading
   * (each step retried through an outage). `onFatal` hears a failure that stops the learner. A
   * {@link stop} while starting ends the start (it rejects).
   */
  start(onFatal: (error: Error) => void): Promise<void> {
    return this.life.start(onFatal, () => this.begin());
  }

  /** A step of the start, retried through an outage; refused once the learner stops. */
  private step<T>(what: string, attempt: () => Promise<T>): Promise<T> {
    if (this.life.stopping) return Promise.reject(new VbstreamError('io', `stopped while ${what}`, {}));
    return this.outage.retry(what, attempt);
  }

  private async begin(): Promise<void> {
    const { loggedTopic, outcomesTopic, model } = this.options;
    const { logged, outcome } = this.join.vocabulary;
    const admin = this.port.admin();
    this.admin = admin;
    await this.step('connecting the admin client', () => admin.connect());
    for (const topic of [loggedTopic, outcomesTopic]) await this.step(`creating ${topic}`, () => ensureTopic(admin, topic, { partitions: this.options.partitions ?? 1, ...this.options.topics }));
    const counts = await this.step(`reading the partitions of ${loggedTopic} and ${outcomesTopic}`, () => Promise.all([loggedTopic, outcomesTopic].map(async (topic) => (await admin.fetchTopicOffsets(topic)).length)));
    if (counts[0] !== counts[1]) throw new ConfigError(`${loggedTopic} has ${counts[0]} partitions and ${outcomesTopic} ${counts[1]}: a ${logged} and its ${outcome} must share a partition`, { field: 'partitions' });
    for (const topic of [loggedTopic, outcomesTopic]) await this.step(`creating ${topic}.dlq`, () => ensureTopic(admin, `${topic}.dlq`, { partitions: counts[0], ...this.options.topics }));
    this.states = new JoinStateStore(this.store, this.join, { model, loggedTopic, outcomesTopic, maxRecordBytes: this.maxStateRecordBytes, remember: this.remember });
    this.combiner = new JoinModelCombiner(this.states, this.join, { model, partitions: counts[0] });
    const producer = this.port.producer({ idempotent: true, maxInFlightRequests: 1 });
    this.producer = producer;
    await this.step('connecting the producer', () => producer.connect());
    this.deadLetters = new DeadLetterSink(producer);
    if (this.life.stopping) throw new VbstreamError('io', 'stopped while starting', {});
    await this.publishOnce();
    const reader = this.port.consumer({ groupId: `vbstream-keyed-join-reader-${randomUUID()}`, maxWaitTimeInMs: 100 });
    this.loggedReader = reader;
    reader.on('consumer.crash', ({ payload }) => {
      if (!payload.restart) this.fail(payload.error);
      else this.outage.failed(`reading ${loggedTopic}`, payload.error);
    });
    await this.step(`subscribing to ${loggedTopic}`, async () => {
      await reader.connect();
      await reader.subscribe({ topics: [loggedTopic], fromBeginning: true });
      await reader.run({ autoCommit: false, eachBatch: async (payload) => this.readLogged(payload) });
    });
    const source = new KafkaSource(this.port, { topic: outcomesTopic, groupId: this.options.groupId, sessionTimeoutMs: this.options.sessionTimeoutMs });
    this.source = source;
    source.onAssignment((partitions, generation) => this.assigned(partitions, generation));
    source.onRestart((error) => this.outage.failed(`fetching ${outcomesTopic}`, error));
    await this.step('joining the consumer group', () => source.start((batch) => {
      const work = batchWork(this.life.stopping || this.life.failure !== undefined, () => this.readOutcomes(batch), () => this.life.stopping, (error) => this.fail(error));
      this.inflight = work.catch(() => undefined);
      return work;
    }, (error) => this.fail(error)));
    this.expiryTimer = setInterval(() => this.expire(), this.expiryCheckMs);
    this.expiryTimer.unref();
    this.snapshotTimer = setInterval(() => {
      if (this.life.stopping) return;
      for (const part of this.parts.values()) if (part.sinceSnapshot > 0) this.checkpoint(part).catch(() => undefined); // a failure is fatal (checkpoint)
    }, this.snapshotEveryMs);
    this.snapshotTimer.unref();
    this.watching = this.watch();
    this.life.started = true;
    this.options.readiness?.set('source-consuming');
  }

  /**
   * Stops reading, writes the state of every owned partition with outcomes since its last,
   * publishes the merged model, leaves the group and disconnects, within `shutdownTimeoutMs`: past
   * it (the brokers are down, say) the partitions not yet saved keep their last durable state,
   * everything is closed, and it rejects saying which partitions were not saved. Rejects with the
   * first failed write otherwise. Calling it again returns the same promise.
   */
  stop(): Promise<void> {
    return this.life.stop(() => this.shutdown());
  }

  private async shutdown(): Promise<void> {
    this.life.stopping = true;
    clearInterval(this.expiryTimer);
    clearInterval(this.snapshotTimer);
    this.watchWaker.wake?.();
    this.options.readiness?.set('source-consuming', false);
    for (const part of this.parts.values()) part.wake();
    const grace = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
    const source = this.source;
    if (!this.life.started || source === undefined) { // stopped while starting (the brokers down, say): nothing was learned, so nothing to save
      this.outage.close();
      await Promise.race([Promise.allSettled([this.life.starting?.catch(() => undefined), this.loggedReader?.disconnect(), source?.stop(), this.producer?.disconnect(), this.admin?.disconnect()]), grace()]);
      return;
    }
    const drain = async (): Promise<PromiseSettledResult<void>[]> => {
      await this.inflight;
      await this.expiring.catch(() => undefined);
      await this.restores.settled();
      await this.loggedReader?.disconnect().catch(() => undefined);
      const owned = [...this.parts.values()].filter((part) => this.owns(part));
      const written = await Promise.allSettled(owned.map((part) => (part.sinceSnapshot > 0 ? this.checkpoint(part) : part.checkpoints)));
      await this.publishing.catch(() => undefined);
      for (const part of this.parts.values()) part.retire();
      await source.stop().catch(() => undefined); // a member that cannot leave (the brokers are down) is dropped at its session timeout
      return written;
    };
    const close = async (timedOut: boolean): Promise<{ unsaved: number[]; closing: Promise<unknown> }> => {
      const unsaved = [...this.parts.values()].filter((part) => part.sinceSnapshot > 0 || part.writes > 0).map((part) => part.partition).sort((a, b) => a - b);
      for (const part of this.parts.values()) part.retire();
      this.outage.close();
      const closing = Promise.allSettled([
        ...(timedOut ? [source.stop(), this.loggedReader?.disconnect()] : []),
        this.producer?.disconnect(),
        this.admin?.disconnect(),
        this.watching,
      ]);
      return { unsaved, closing };
    };
    await stopWithinDeadline({
      timeoutMs: this.timings.shutdownTimeoutMs, drain, close, graceMs: CLOSE_GRACE_MS, outage: this.outage, failure: () => this.life.failure,
      unfinished: 'the writes did not finish', save: 'state', kept: 'state', topic: this.options.outcomesTopic,
    });
  }

  /** After a group join: drops revoked partitions and restores every assigned one; outcome batches wait until all are restored, and a restore that fails for good stops the learner. */
  private assigned(partitions: readonly number[], generation: number): void {
    for (const [p, part] of [...this.parts]) {
      if (!partitions.includes(p)) {
        this.parts.delete(p);
        part.retire();
        this.loggedReader?.pause([{ topic: this.options.loggedTopic, partitions: [p] }]);
      }
    }
    this.options.onEvent?.({ type: 'assigned', partitions, generation });
    this.restores.assigned(partitions, generation);
  }

  /** A partition's latest state (or a fresh one), live from now on, its logged partition read on from the state's offset. */
  private async restore(p: number, generation: number): Promise<JoinPartition<L, M>> {
    const previous = this.parts.get(p);
    if (previous !== undefined) {
      previous.retire();
      await previous.checkpoints.catch(() => undefined);
    }
    const restored = await this.states.read(p, this.combiner.options.partitions);
    const part = new JoinPartition(p, generation, restored ?? { model: this.join.createModel(), pending: new PendingJoins<L>(this.remember, this.join), loggedNext: 0, outcomesNext: 0, learned: 0 });
    if (!this.restores.wanted(p, generation) || this.source?.generation !== generation || this.life.stopping) {
      part.retire(); // superseded by a newer group join while restoring
      return part;
    }
    this.parts.set(p, part);
    this.seekLogged(part);
    this.loggedReader?.resume([{ topic: this.options.loggedTopic, partitions: [p] }]);
    this.setPending();
    this.options.onEvent?.({ type: 'restored', partition: p, fromSnapshot: restored !== undefined, outcomesOffset: part.outcomesNext, loggedOffset: part.loggedNext, pending: part.pending.size, learned: part.learned });
    return part;
  }

  private seekLogged(part: JoinPartition<L, M>): void {
    if (part.loggedSoughtTo !== part.loggedNext) part.loggedSeeks = 0;
    part.loggedSoughtTo = part.loggedNext;
    part.loggedSeeks++;
    this.loggedReader?.seek({ topic: this.options.loggedTopic, partition: part.partition, offset: String(part.loggedNext) });
  }

  /** Whether this instance still owns the partition at the generation it was restored for. */
  private owns(part: JoinPartition<L, M>): boolean {
    return part.live && this.source !== undefined && this.source.generation === part.generation && this.source.assigned.includes(part.partition);
  }

  /**
   * Logged records into their partition's pending state (synchronously: a snapshot never sees half
   * a batch). A partition this instance does not own is paused; a batch that starts past the
   * partition's next offset (fetched before the restore's seek) is fetched again from there.
   */
  private async readLogged({ batch }: PortEachBatchPayload): Promise<void> {
    const p = batch.partition;
    const part = this.parts.get(p);
    if (part === undefined || !part.live) {
      this.loggedReader?.pause([{ topic: batch.topic, partitions: [p] }]);
      return;
    }
    if (batch.messages.length > 0 && Number(batch.messages[0].offset) > part.loggedNext && part.loggedSeeks < 3) {
      this.seekLogged(part);
      return;
    }
    for (const message of batch.messages) {
      if (Number(message.offset) < part.loggedNext) continue;
      try {
        const logged = this.join.parseLogged(this.json(message), part.model);
        if (part.pending.add(logged, p)) this.join.observer?.logged?.(logged);
      } catch (error) {
        this.deadLetter(batch.topic, p, message, error);
      }
    }
    part.loggedNext = Math.max(part.loggedNext, Number(batch.lastOffset()) + 1);
    this.setPending();
    part.wake();
  }

  /** A batch of outcomes of one partition, applied in order to the partition's state restored for the batch's generation, once every partition assigned then is restored. */
  private async readOutcomes(batch: SourceBatch): Promise<void> {
    if (!(await this.restores.admit(batch.generation))) return;
    const p = batch.partition;
    const part = this.parts.get(p);
    if (part === undefined || part.generation !== batch.generation || !part.live || this.life.stopping) return;
    const first = Number(batch.messages[0].offset);
    const next = part.outcomesNext;
    // The first batch after a restore starts where the state ends; a later one past the next offset
    // is fetched again from there, once. Outcomes below the next offset are in the state already.
    if (part.outcomesSoughtTo !== next && (part.outcomesPositioned ? first > next : first !== next)) {
      part.outcomesPositioned = true;
      part.outcomesSoughtTo = next;
      this.source!.seek(p, next);
      return;
    }
    part.outcomesPositioned = true;
    for (const message of batch.messages) {
      if (!batch.active() || !part.live || this.life.stopping) return;
      const offset = Number(message.offset);
      if (offset >= part.outcomesNext) {
        try {
          await this.outcome(part, parseOutcomeRecord(this.json(message), this.join.vocabulary), message);
        } catch (error) {
          if (error instanceof Superseded) return;
          this.deadLetter(batch.topic, p, message, error);
        }
        part.outcomesNext = offset + 1;
        part.sinceSnapshot++;
      }
      batch.resolve(message.offset);
      if (part.sinceSnapshot >= this.snapshotEvery) {
        await this.checkpoint(part);
        await batch.heartbeat();
      }
    }
  }

  /** One outcome (or expiry marker) against the partition's join state. */
  private async outcome(part: JoinPartition<L, M>, record: OutcomeRecord, message: PortMessage): Promise<void> {
    const { id } = record;
    const { pending } = part;
    const { observer } = this.join;
    if (pending.status(id) === 'unknown' && !record.expired) await this.catchUp(part);
    const status = pending.status(id);
    if (record.expired) {
      if (status !== 'pending') return; // joined in time, or a second marker after a restart
      const { logged } = pending.get(id)!;
      if (record.value !== undefined) this.learn(part, logged, record.value);
      pending.resolve(id, 'expired');
      part.marked.delete(id);
      observer?.expired?.(logged, record.value);
    } else if (status === 'pending') {
      const { logged } = pending.get(id)!;
      this.learn(part, logged, record.value!);
      pending.resolve(id, 'joined');
      part.marked.delete(id);
      observer?.joined?.(logged, record.value!, Number(message.timestamp));
    } else {
      throw this.refusal(status, id);
    }
    this.setPending();
  }

  /** Why an outcome for a record that is not pending is refused. */
  private refusal(status: Exclude<JoinStatus, 'pending'>, id: string): JoinRefusal {
    const v = this.join.vocabulary;
    if (status === 'joined') return new JoinRefusal(v.duplicate, `${v.logged} ${id} was ${v.joined} already`);
    if (status === 'expired') return new JoinRefusal(v.late, `the window of ${v.logged} ${id} had closed`);
    return new JoinRefusal(v.unknown, `no ${v.logged} ${id} was logged (or it was resolved too long ago to be remembered)`);
  }

  /** The partition's model learns an outcome; one it refuses with a typed error is refused as `refused-by-model` (or the join's reason), the record still pending. */
  private learn(part: JoinPartition<L, M>, logged: L, value: number): void {
    try {
      this.join.learn(part.model, logged, value);
    } catch (error) {
      if (error instanceof JoinRefusal) throw error;
      if (error instanceof VbstreamError && !error.retriable) throw new JoinRefusal('refused-by-model', error.message);
      throw error;
    }
    part.learned++;
  }

  /** Waits until the partition's logged records are read up to the topic's end as of now; throws {@link Superseded} once the partition is no longer this instance's. */
  private async catchUp(part: JoinPartition<L, M>): Promise<void> {
    const { loggedTopic } = this.options;
    const offsets = await this.outage.retry(`reading the end of ${loggedTopic}`, () => this.admin!.fetchTopicOffsets(loggedTopic));
    const end = Number(offsets.find((o) => o.partition === part.partition)?.high ?? 0);
    const deadline = Date.now() + this.catchUpTimeoutMs;
    while (part.loggedNext < end) {
      if (!part.live || this.life.stopping) throw new Superseded();
      if (Date.now() > deadline) throw new VbstreamError('io', `the ${loggedTopic} reader did not reach offset ${end} of partition ${part.partition} within ${this.catchUpTimeoutMs} ms`, { source: loggedTopic }, true);
      await part.nextRead(100);
    }
    if (!part.live || this.life.stopping) throw new Superseded();
  }

  /** The expiry marker of a record: `{<id>, expired: true[, <value>]}`. */
  private marker(id: string): string {
    const { idField, valueField } = this.join.vocabulary;
    const value = this.options.expiredValue;
    const marker: { [key: string]: JsonValue } = { [idField]: id, expired: true };
    if (value !== undefined) marker[valueField] = value;
    return JSON.stringify(marker);
  }

  /** Writes an expiry marker for every pending record of an owned partition whose window has closed (once per record and restore). */
  private expire(): void {
    if (this.life.stopping) return;
    this.expiring = this.expiring.then(async () => {
      const now = Date.now();
      const { windowMs, outcomesTopic } = this.options;
      const due = [...this.parts.values()].filter((part) => part.live).flatMap((part) => part.pending.due(now, windowMs).map((entry) => ({ part, id: this.join.idOf(entry.logged), partition: entry.partition })).filter(({ id }) => !part.marked.has(id)));
      if (due.length === 0) return;
      for (const { part, id } of due) part.marked.add(id);
      const messages = due.map(({ id, partition }) => ({ key: id, partition, value: this.marker(id) }));
      await this.write(`writing expiry markers to ${outcomesTopic}`, outcomesTopic, () => this.producer!.send({ topic: outcomesTopic, acks: -1, messages }));
      this.options.onEvent?.({ type: 'expiring', count: due.length });
    }).catch((error: unknown) => this.fail(error));
  }

  /**
   * Writes the partition's state as it is now (captured synchronously, so it is consistent: no
   * outcome is ever half applied across an await) while this instance owns it: dead letters
   * flushed, then the state, then the merged model. A partition's writes go one after another, in
   * the order asked, each retried through an outage; a failed one stops the learner (`onFatal`): a
   * restart (or the partition's next owner) resumes from the last durable state.
   */
  private checkpoint(part: JoinPartition<L, M>): Promise<void> {
    if (!this.owns(part)) return part.checkpoints;
    let encoded: EncodedJoinState;
    try {
      encoded = this.states.encode(part.partition, part);
    } catch (error) {
      this.fail(error); // a state that cannot be written (larger than maxStateRecordBytes) stops the learner, from a timer as from a batch
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const summary = { type: 'checkpoint' as const, partition: part.partition, outcomesOffset: part.outcomesNext, loggedOffset: part.loggedNext, pending: part.pending.size, learned: part.learned, chunks: encoded.chunks.length };
    part.sinceSnapshot = 0;
    part.writes++;
    const write = part.checkpoints.catch(() => undefined).then(async () => {
      const sink = this.deadLetters!;
      if (sink.pendingCount > 0) await this.write('flushing dead letters', 'the dead-letter topics', () => sink.flush());
      const key = this.states.headKey(part.partition);
      if (!await this.write(`writing learner state ${key}`, `learner state ${key}`, (signal) => this.states.write(encoded, signal), () => this.owns(part))) return;
      this.options.onEvent?.(summary);
      this.source?.commit(summary.partition, summary.outcomesOffset).catch(() => undefined); // a head start for the next owner's fetch; the state holds the position
      void this.publish();
    }).finally(() => { part.writes--; });
    part.checkpoints = write;
    write.catch((error: unknown) => this.fail(error));
    return write;
  }

  /**
   * Runs a write until it succeeds, through an outage, each attempt within `writeTimeoutMs` (its
   * signal aborted past it); resolves false, writing nothing more, once `wanted` says before an
   * attempt that it is no longer wanted (the partition moved on).
   */
  private write(what: string, where: string, work: (signal: AbortSignal) => Promise<unknown>, wanted: () => boolean = () => true): Promise<boolean> {
    return this.outage.retry(what, async () => {
      if (!wanted()) return false;
      await writeWithin(work, this.timings.writeTimeoutMs, what, where);
      return true;
    });
  }

  /** Combines the latest durable state of every partition and publishes it under `model/global`; asked again while one runs, one more runs after it. */
  private publish(): Promise<void> {
    if (this.publishQueued) return this.publishing;
    this.publishQueued = true;
    const run = this.publishing.catch(() => undefined).then(() => {
      this.publishQueued = false;
      return this.publishOnce();
    });
    this.publishing = run;
    run.catch((error: unknown) => this.fail(error));
    return run;
  }

  private async publishOnce(): Promise<void> {
    const key = snapshotKey(this.options.model, 'global');
    let published = { partitions: [] as readonly number[], pending: 0, learned: 0 };
    await this.write(`publishing ${key}`, `snapshot ${key}`, async (signal) => {
      const combined = await this.combiner.combine();
      signal.throwIfAborted();
      await this.combiner.publish(this.options.globalStore ?? this.store, combined);
      published = { partitions: combined.partitions, pending: combined.pending, learned: combined.learned };
    });
    this.options.onEvent?.({ type: 'published', ...published });
  }

  /** Reads the outcomes topic's end offsets every `watchMs` until stopped: the brokers' pulse while idle (a failure starts an outage, a success ends it). */
  private watch(): Promise<void> {
    const admin = this.admin as AdminPort;
    return brokerPulse({
      read: () => admin.fetchTopicOffsets(this.options.outcomesTopic),
      outage: this.outage, everyMs: this.timings.watchMs, waker: this.watchWaker,
      running: () => !this.life.stopping && this.life.failure === undefined, stopping: () => this.life.stopping, fail: (error) => this.fail(error),
    });
  }

  private setPending(): void {
    this.join.observer?.pending?.(this.pendingCount);
  }

  private json(message: PortMessage): unknown {
    if (message.value === null) throw new JoinRefusal('empty', 'no value');
    try {
      return JSON.parse(message.value.toString('utf8'));
    } catch (error) {
      throw new JoinRefusal('bad-json', (error as Error).message);
    }
  }

  /** A record that cannot be used to its topic's DLQ; anything that is not a refusal or a typed input or shape error propagates. */
  private deadLetter(topic: string, partition: number, message: PortMessage, error: unknown): void {
    let reason: DeadLetterReason;
    if (error instanceof JoinRefusal) reason = error.reason;
    else if (error instanceof VbstreamError && error.kind === 'input') reason = error.location.field === this.join.vocabulary.valueField ? 'bad-label' : 'bad-shape';
    else if (error instanceof VbstreamError && error.kind === 'shape') reason = 'wrong-width';
    else throw error;
    this.join.observer?.deadLetter?.(reason);
    this.deadLetters!.add({ reason, detail: (error as Error).message, topic, partition, offset: message.offset, key: message.key, value: message.value });
  }

  /** A failure stops the learner, unless it is stopping already. */
  private fail(error: unknown): void {
    if (!this.life.stopping) this.life.fail(error);
  }
}
