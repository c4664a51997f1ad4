import { ModelMonitor } from '../../monitoring/model-monitor.js';
import type { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import type { Readiness } from '../../monitoring/readiness.js';
import type { BadRecord } from '../../operators/bad-record.js';
import { InProcessLearner } from '../../operators/in-process-learner.js';
import type { Learner } from '../../operators/learner.js';
import type { UpdateEvent } from '../../operators/update-event.js';
import { WorkerLearner } from '../../operators/worker/worker-learner.js';
import type { InputLimits } from '../../src/core/input-limits.js';
import type { JsonValue, ModelSnapshot } from '../../src/core/model-snapshot.js';
import { optionChecks } from '../../src/core/option-checks.js';
import type { RuntimeFamily } from '../../src/core/family.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { decodeSnapshotEvent } from '../../src/core/decode-snapshot-event.js';
import { getFamily } from '../../src/registry.js';
import type { DecoderSpec } from '../../operators/worker/worker-decoders.js';
import { AssignmentRestores } from './assignment-restores.js';
import { batchWork } from './batch-work.js';
import { BrokerOutage } from './broker-outage.js';
import { brokerPulse } from './broker-pulse.js';
import { decodeChunk } from './decode-chunk.js';
import { DeadLetterShare, type DeadLetterShareOptions, type DeadLetterWindow } from './dead-letter-share.js';
import type { DeadLetterReason } from './dead-letter-reason.js';
import { DeadLetterSink, type DeadLetterSinkOptions } from './dead-letter-sink.js';
import { encodeChunk } from './encode-chunk.js';
import { ensureTopic } from './ensure-topic.js';
import { KafkaCheckpointer } from './kafka-checkpointer.js';
import { LearnerLifecycle } from './learner-lifecycle.js';
import { learnerTimingsOf, type LearnerTimings } from './learner-timings.js';
import type { AdminPort, KafkaPort, PortMessage, ProducerPort } from './kafka-port.js';
import { KafkaSource, type SourceBatch } from './kafka-source.js';
import type { LearnerEvent } from './learner-event.js';
import { PartitionRun } from './partition-run.js';
import { RecordDecoder } from './record-decoder.js';
import type { RecordSchema } from './record-schema.js';
import type { DecoderFactory, ValueDecoder } from './value-decoder.js';
import { restorePartition } from './restore-partition.js';
import { snapshotKey } from './snapshot-key.js';
import { stopWithinDeadline } from './stop-within-deadline.js';
import type { SnapshotStore } from './snapshot-store.js';
import type { TopicDurability } from './topic-durability.js';

/** Options of {@link PartitionedLearner}. */
export interface PartitionedLearnerOptions {
  readonly topic: string;
  readonly groupId: string;
  /** Model name: snapshot keys are `model/partition`. */
  readonly model: string;
  /** Registry id of the family, e.g. `vb-linear`. */
  readonly family: string;
  readonly familyOptions?: unknown;
  /** The record schema; the label check follows the family's task. Its `maxAbsInput` bounds the partitions' models too. */
  readonly schema: Omit<RecordSchema, 'task' | 'requireLabel'>;
  /** How values become records: JSON by default; `AvroRecordDecoder.factory({ registry })` for Avro with a schema registry. */
  readonly decoder?: DecoderFactory | undefined;
  /** Records per partition between snapshots; default 10,000. A caught-up partition is snapshotted too. */
  readonly snapshotEvery?: number | undefined;
  /**
   * Snapshot a partition once this many ms passed since its last snapshot, when records passed
   * since it; also the least time between two snapshots of a partition that has caught up with its
   * end (a live stream catches up at every fetch). Default 10,000 ms.
   */
  readonly snapshotEveryMs?: number | undefined;
  /**
   * A partition the group has committed an offset for but that has no snapshot of this model (it
   * was learned by another family, or under another model name): `'fail'` (default) stops the
   * service with a `SnapshotError` naming both sides before any offset moves; `'from-earliest'`
   * learns a fresh model from the partition's earliest offset.
   */
  readonly missingSnapshot?: 'fail' | 'from-earliest' | undefined;
  /** Longest Kafka outage ridden out (readiness false, writes and fetches retried with backoff) before the service stops with an error, ms; default 300,000. */
  readonly maxOutageMs?: number | undefined;
  /** How often the assigned partitions' end offsets are read (consumer lag while idle, and the brokers' health), ms; default 1,000. */
  readonly watchMs?: number | undefined;
  /** When a partition's dead letters are an alarm: over `share` (default 0.1) of a window of `window` records (default 1,000). */
  readonly deadLetterAlarm?: DeadLetterShareOptions | undefined;
  /** Longest {@link PartitionedLearner.stop} may take (final snapshots and commits, leaving the group) before it gives up and rejects, ms; default 30,000. */
  readonly shutdownTimeoutMs?: number | undefined;
  /** Consumer-group session timeout: how long a crashed member holds its partitions; default 30 s. */
  readonly sessionTimeoutMs?: number | undefined;
  /** Most bytes per partition in one Fetch; default 256 KiB (`KafkaSourceOptions.maxBytesPerPartition` says why). */
  readonly maxBytesPerPartition?: number | undefined;
  /** Records per model update (and, decoding in this thread, per learn call and heartbeat; a decoding worker is handed as many whole minibatches as fit in 1,024 records per call); default 1,000. */
  readonly chunkSize?: number | undefined;
  /** Each partition's model in its own worker thread (`WorkerLearner`, default) or in this thread (`InProcessLearner`). */
  readonly worker?: boolean | undefined;
  /** Records of a partition sent to its model and not yet learned at which the partition is paused (resumed at half); default 20,000. */
  readonly queueCapacity?: number | undefined;
  /** Score each record before learning it (prequential log-loss and Brier in the metrics); default false. */
  readonly evaluate?: boolean | undefined;
  /** How dead letters are cut to the broker's limits (see `DeadLetterSink`). */
  readonly deadLetters?: Omit<DeadLetterSinkOptions, 'topicOf'> | undefined;
  /** Replication of the dead-letter topic when this learner creates it (default min(3, brokers), min.insync.replicas one less). */
  readonly topics?: TopicDurability | undefined;
  /** Longest one attempt of a dead-letter flush or a snapshot save may take before it is tried again (an outage) or the service stops (past `maxOutageMs`); default 60,000 ms. */
  readonly writeTimeoutMs?: number | undefined;
  /** Where the learner's metrics go: records by status, latency, posterior, snapshots, dead letters, consumer lag, queue depth. */
  readonly metrics?: PipelineMetrics | undefined;
  /**
   * Conditions kept current when given: `model-restored` (every assigned partition restored),
   * `source-consuming`, `brokers-reachable` (false during an outage) and `dead-letters` (false while
   * a partition's dead-letter share is over its alarm, with the reason and an example).
   */
  readonly readiness?: Readiness | undefined;
  readonly onEvent?: ((event: LearnerEvent) => void) | undefined;
}

/** The worker entry that decodes JSON values where the partition's model lives. */
const DECODING_WORKER = 'connectors/kafka/decoding-model-worker.js';

/**
 * Records handed to a partition's decoding worker in one message: as many whole minibatches
 * (`chunkSize` records each) as fit, at least one. The worker still learns them in one update each,
 * scored before it, but a message and its reply cost both threads about 0.3 ms whatever their size,
 * which at one per minibatch of 256 was a large share of the runtime's own cost.
 */
const RECORDS_PER_MESSAGE = 1_024;

/** How often owed commits (a durable snapshot whose offset the group refused during a rebalance) are retried, ms. */
const COMMIT_RETRY_MS = 2_000;

/** How long, after {@link PartitionedLearner.stop} gave up, the consumer, workers and producer get to close, ms. */
const CLOSE_GRACE_MS = 2_000;

const count = (n: number): string => Math.round(n).toLocaleString('en-US');

/**
 * One model per assigned partition of a topic, fed by a consumer group, with exactly-once posterior
 * state, on the same runtime as a file pipeline. Its parts, along the consumer's own roles:
 * - assignments: after every group join every assigned partition is restored from its latest
 *   snapshot (checked against the configured family and dimension; a partition the group has
 *   committed an offset for but with no snapshot of this model is refused too, see
 *   `missingSnapshot`) into a {@link PartitionRun} — learn → snapshots → checkpoint — with its model
 *   in a worker thread (default) or in this thread; no batch is learned until every assigned
 *   partition is restored, and a restore that fails stops the service at once, before any offset
 *   moves; revoked partitions are retired;
 * - the consume loop: each fetched batch is cut into chunks — with workers and JSON values packed
 *   undecoded and decoded by the partition's worker, otherwise decoded here — (bad records to the
 *   dead-letter topic, with their reason), records below the restored offset skipped, the first batch after a restore
 *   sought to it; chunks are fed without waiting for the model, behind a per-partition
 *   backpressure valve on the consumer's pause/resume; every `snapshotEvery` records a snapshot is
 *   asked for and the partition fed on while it is saved (the next one waits until it is durable), and
 *   when a partition reaches its end (at most once per `snapshotEveryMs`) one is asked for and awaited;
 * - checkpointing ({@link KafkaCheckpointer}): dead letters flushed, snapshot durable, offset
 *   committed; commits refused during a rebalance are retried;
 * - a watch: every `watchMs` the partitions' end offsets are read, for the consumer lag (end −
 *   next offset to learn, for every assigned partition) and as the brokers' pulse while idle.
 * A Kafka outage is ridden out for `maxOutageMs` ({@link BrokerOutage}: readiness false, one event
 * per change, writes and fetches retried with backoff), then stops the service. A partition whose
 * dead-letter share passes its alarm says so (an event, readiness, a metric). A crash at any point
 * neither loses a record nor counts one twice. Any failure of a partition's pipeline (a model, a
 * write refused for good) calls `onFatal`.
 */
export class PartitionedLearner {
  private readonly family: RuntimeFamily;
  /** The partitions' models' input limits: the schema's `maxAbsInput`, which the decoder checks first. */
  private readonly limits: InputLimits;
  private readonly decoder: ValueDecoder;
  /** The JSON decoder as the partitions' workers build it, when they decode (workers on, no custom decoder); undefined: this thread decodes. */
  private readonly workerDecoder: DecoderSpec | undefined;
  private readonly snapshotEvery: number;
  private readonly snapshotEveryMs: number;
  private readonly chunkSize: number;
  private readonly queueCapacity: number;
  private readonly timings: LearnerTimings;
  private readonly outage: BrokerOutage;
  private readonly runs = new Map<number, PartitionRun>();
  /** The restore of every partition assigned at a generation: batches wait for it. */
  private readonly restores: AssignmentRestores<PartitionRun>;
  private readonly shares = new Map<number, DeadLetterShare>();
  private readonly alarms = new Map<number, string>();
  /** Per partition, the end offset and the earliest offset, as last read. */
  private readonly ends = new Map<number, { high: number; low: number }>();
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  private readonly w: Float64Array;
  private source: KafkaSource | undefined;
  private admin: AdminPort | undefined;
  private producer: ProducerPort | undefined;
  private deadLetters: DeadLetterSink | undefined;
  private inflight: Promise<void> = Promise.resolve();
  private commitTimer: NodeJS.Timeout | undefined;
  private watching: Promise<void> | undefined;
  private readonly watchWaker: { wake?: () => void } = {};
  private readonly life = new LearnerLifecycle();
  private applied = 0;

  constructor(private readonly port: KafkaPort, private readonly store: SnapshotStore, readonly options: PartitionedLearnerOptions) {
    this.family = getFamily(options.family);
    this.limits = { maxAbsInput: options.schema.maxAbsInput };
    const schema = { ...options.schema, task: this.family.task };
    this.decoder = (options.decoder ?? ((s) => new RecordDecoder(s)))(schema); // checks the schema even when the workers decode
    this.workerDecoder = (options.worker ?? true) && options.decoder === undefined ? { kind: 'kafka-json', config: schema, weighted: schema.weight !== undefined } : undefined;
    this.snapshotEvery = optionChecks.positiveInteger('snapshotEvery', options.snapshotEvery, 10_000);
    this.snapshotEveryMs = optionChecks.positive('snapshotEveryMs', options.snapshotEveryMs, 10_000);
    this.chunkSize = optionChecks.positiveInteger('chunkSize', options.chunkSize, 1_000);
    this.queueCapacity = optionChecks.positiveInteger('queueCapacity', options.queueCapacity, 20_000);
    this.timings = learnerTimingsOf(options);
    optionChecks.oneOf('missingSnapshot', options.missingSnapshot, 'fail', ['fail', 'from-earliest']);
    new DeadLetterShare(options.deadLetterAlarm); // checks the alarm's options
    const maxOutageMs = optionChecks.positive('maxOutageMs', options.maxOutageMs, 300_000);
    const { readiness, metrics } = options;
    this.outage = new BrokerOutage({
      maxOutageMs, setting: 'maxOutageMs (source.maxOutageMs in a pipeline config)',
      changed: (change) => {
        readiness?.set('brokers-reachable', change.type === 'brokers-reachable', change.type === 'brokers-unreachable' ? `${change.what}: ${change.reason}` : undefined);
        metrics?.setBrokersReachable(options.topic, change.type === 'brokers-reachable');
        options.onEvent?.(change);
      },
      expired: (error) => this.fail(error),
    });
    this.restores = new AssignmentRestores({
      restore: (p, generation) => this.restore(p, generation), outage: this.outage, readiness,
      generation: () => this.source?.generation, stopping: () => this.life.stopping, fail: (error) => this.fail(error),
    });
    const scratch = this.workerDecoder === undefined ? this.chunkSize : 0; // decoding here needs it
    this.x = new Float64Array(scratch * options.schema.dim);
    this.y = new Float64Array(scratch);
    this.w = new Float64Array(scratch);
    this.family.create(options.schema.dim, options.familyOptions, this.limits); // fails fast on bad options
    for (const condition of ['model-restored', 'source-consuming', 'brokers-reachable', 'dead-letters']) readiness?.require(condition);
    readiness?.set('dead-letters');
    readiness?.set('brokers-reachable'); // until an operation fails
    metrics?.setBrokersReachable(options.topic, true);
  }

  /**
   * Creates the dead-letter topic if needed, joins the group and starts learning (each step retried
   * through an outage). `onFatal` hears a crash of the consumer, a failed pipeline or an outage past
   * `maxOutageMs`. A {@link stop} while starting ends the start (it rejects).
   */
  start(onFatal: (error: Error) => void): Promise<void> {
    return this.life.start(onFatal, () => this.begin());
  }

  private async begin(): Promise<void> {
    const { topic, groupId } = this.options;
    const admin = this.port.admin();
    this.admin = admin;
    await this.outage.retry('connecting the admin client', () => admin.connect());
    const partitions = (await this.outage.retry(`reading the partitions of ${topic}`, () => admin.fetchTopicOffsets(topic))).length;
    await this.outage.retry(`creating ${topic}.dlq`, () => ensureTopic(admin, `${topic}.dlq`, { partitions, ...this.options.topics }));
    const producer = this.port.producer({ idempotent: true, maxInFlightRequests: 1 });
    this.producer = producer;
    await this.outage.retry('connecting the producer', () => producer.connect());
    this.deadLetters = new DeadLetterSink(producer, this.options.deadLetters);
    const source = new KafkaSource(this.port, { topic, groupId, sessionTimeoutMs: this.options.sessionTimeoutMs, maxBytesPerPartition: this.options.maxBytesPerPartition });
    this.source = source;
    source.onAssignment((assigned, generation) => this.assigned(assigned, generation));
    source.onRestart((error) => this.outage.failed('fetching records', error));
    await this.outage.retry('joining the consumer group', () => source.start((batch) => {
      const work = batchWork(this.life.stopping || this.life.failure !== undefined, () => this.consume(batch), () => this.life.stopping, (error) => this.fail(error));
      this.inflight = work.catch(() => undefined);
      return work;
    }, (error) => this.fail(error)));
    // A failure here (an onEvent that throws) stops the learner like a failed pipeline, not as an unhandled rejection.
    this.commitTimer = setInterval(() => { for (const run of this.runs.values()) run.checkpointer.commitOwed().catch((error: unknown) => this.fail(error)); }, COMMIT_RETRY_MS);
    this.commitTimer.unref();
    this.watching = this.watch();
    this.life.started = true;
    this.options.readiness?.set('source-consuming');
  }

  /** The source, for backpressure (`pause` / `resume` per partition). */
  get kafkaSource(): KafkaSource | undefined {
    return this.source;
  }

  /** Records learned by the models of this process (replays after a restore count again). */
  get recordsApplied(): number {
    return this.applied;
  }

  /** Records sent to the models and not yet learned, over every partition. */
  get queueDepth(): number {
    let depth = 0;
    for (const run of this.runs.values()) depth += run.valve.depth;
    return depth;
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
   * Per owned partition: the next offset to send, the consumer lag (records behind the end that
   * are not learned yet: end offset − next offset to learn), the records queued for its model and
   * how often backpressure paused it.
   */
  partitions(): Map<number, { nextOffset: number | null; lag: number; queued: number; pauses: number }> {
    const status = new Map<number, { nextOffset: number | null; lag: number; queued: number; pauses: number }>();
    for (const [p, run] of this.runs) status.set(p, { nextOffset: run.nextOffset, lag: this.lagOf(p, run), queued: run.valve.depth, pauses: run.valve.pauses });
    return status;
  }

  /**
   * Stops fetching, lets every partition learn what it was sent, snapshots and commits each (a
   * final snapshot where records passed since the last, owed commits otherwise), leaves the group
   * and ends the models' workers, within `shutdownTimeoutMs`: past it (the brokers are down, say) the
   * partitions not yet saved keep their last durable snapshot and committed offset, everything is
   * closed, and it rejects saying which partitions were not saved. Rejects with the first failure
   * if a pipeline failed. Calling it again returns the same promise.
   */
  stop(): Promise<void> {
    return this.life.stop(() => this.shutdown());
  }

  private async shutdown(): Promise<void> {
    const source = this.source;
    this.life.stopping = true;
    clearInterval(this.commitTimer);
    this.watchWaker.wake?.();
    this.options.readiness?.set('source-consuming', false);
    if (!this.life.started) { // stopped while starting (the brokers down, say): nothing was learned, so nothing to save
      this.outage.close();
      const starting = this.life.starting?.catch(() => undefined);
      await Promise.race([Promise.allSettled([starting, source?.stop(), this.producer?.disconnect(), this.admin?.disconnect()]), new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
      return;
    }
    if (source === undefined) return;
    const drain = async (): Promise<PromiseSettledResult<void>[]> => {
      await this.inflight;
      await this.restores.settled();
      const current = [...this.runs.values()].filter((run) => run.generation === source.generation && run.failure === undefined);
      const finished = await Promise.allSettled(current.map(async (run) => {
        await run.finish();
        await run.checkpointer.commitOwed();
      }));
      await source.stop().catch(() => undefined); // a member that cannot leave (the brokers are down) is dropped at its session timeout
      return finished;
    };
    const close = async (timedOut: boolean): Promise<{ unsaved: number[]; closing: Promise<unknown> }> => {
      const unsaved = [...this.runs.values()].filter((run) => run.nextOffset !== null && (run.checkpointer.durableOffset ?? -1) < run.nextOffset).map((run) => run.partition).sort((a, b) => a - b);
      this.outage.close();
      const closing = Promise.allSettled([
        ...[...this.runs.values()].map((run) => run.retire()),
        ...(timedOut ? [source.stop()] : []),
        this.producer?.disconnect(),
        this.admin?.disconnect(),
      ]);
      this.runs.clear();
      await this.watching;
      return { unsaved, closing };
    };
    await stopWithinDeadline({
      timeoutMs: this.timings.shutdownTimeoutMs, drain, close, graceMs: CLOSE_GRACE_MS, outage: this.outage, failure: () => this.life.failure,
      unfinished: 'the models did not finish', save: 'snapshot', kept: 'snapshot and committed offset', topic: this.options.topic,
    });
  }

  private fail(error: unknown): void {
    this.life.fail(error);
  }

  /** After a group join: retires revoked partitions and restores every assigned one; batches wait until all are restored, and a restore that fails stops the service at once. */
  private assigned(partitions: readonly number[], generation: number): void {
    for (const [p, run] of [...this.runs]) {
      if (!partitions.includes(p)) {
        this.runs.delete(p);
        this.shares.delete(p);
        this.ends.delete(p);
        this.options.metrics?.removeConsumerLag(this.options.topic, p);
        this.clearAlarm(p);
        void run.retire();
      }
    }
    this.options.onEvent?.({ type: 'assigned', partitions, generation });
    this.restores.assigned(partitions, generation);
  }

  private async restore(p: number, generation: number): Promise<PartitionRun> {
    const { topic, model, family, schema } = this.options;
    const restored = await restorePartition(this.store, { topic, partition: p, model, family, dim: schema.dim });
    const nextOffset = restored?.nextOffset ?? await this.withoutSnapshot(p);
    const { learner, close } = await this.openLearner(p, restored?.snapshot);
    const source = this.source as KafkaSource;
    const run = new PartitionRun({
      partition: p, generation, learner, close, nextOffset, queueCapacity: this.queueCapacity, evaluate: this.options.evaluate ?? false, everyMs: this.snapshotEveryMs,
      source: { pause: () => source.pause([p]), resume: () => source.resume([p]) },
      checkpointer: new KafkaCheckpointer({
        topic, partition: p, model, family, store: this.store, deadLetters: this.deadLetters as DeadLetterSink, timeoutMs: this.timings.writeTimeoutMs,
        commit: (offset) => source.commit(p, offset), owned: () => source.generation === generation && source.assigned.includes(p),
        retry: (what, attempt) => this.outage.retry(what, attempt),
        onEvent: this.options.onEvent,
      }, nextOffset),
      checkpointed: (checkpoint) => this.options.metrics?.model(family, String(p)).recordSnapshot(checkpoint.bytes),
      refused: (bad) => this.refused(p, bad),
      updated: (event) => this.updated(p, event),
      failed: (error) => this.fail(error),
    });
    if (!this.restores.wanted(p, generation) || this.life.stopping) {
      await run.retire(); // superseded by a newer join while restoring
      return run;
    }
    const previous = this.runs.get(p);
    this.runs.set(p, run);
    if (!this.shares.has(p)) this.shares.set(p, new DeadLetterShare(this.options.deadLetterAlarm));
    if (previous !== undefined) void previous.retire();
    if (source.isPaused(p)) source.resume([p]); // paused by the previous owner's valve
    if (restored === undefined && nextOffset !== null) source.seek(p, nextOffset); // started over: the consumer may stand at the end, past it
    this.options.onEvent?.({ type: 'restored', partition: p, nextOffset, records: learner.recordsSeen, fromSnapshot: restored !== undefined });
    this.setLag(p, run);
    return run;
  }

  /**
   * Where a partition with no snapshot of this model starts: where the consumer stands (null) when
   * the group has committed no offset for it; when it has, this model did not learn what the
   * offset covers — another family or model name did — so `missingSnapshot` decides: a
   * `SnapshotError` naming both sides, or the partition's earliest offset.
   */
  private async withoutSnapshot(p: number): Promise<number | null> {
    const { topic, groupId, model, family, schema, missingSnapshot = 'fail' } = this.options;
    const admin = this.admin as AdminPort;
    const offsets = await admin.fetchOffsets({ groupId, topics: [topic] });
    const committed = Number(offsets.find((t) => t.topic === topic)?.partitions.find((q) => q.partition === p)?.offset ?? -1);
    if (!(committed >= 0)) return null;
    if (missingSnapshot === 'from-earliest') {
      const earliest = Number((await admin.fetchTopicOffsets(topic)).find((q) => q.partition === p)?.low ?? 0);
      this.options.onEvent?.({ type: 'starting-over', partition: p, committed, nextOffset: earliest });
      return earliest;
    }
    const key = snapshotKey(model, p);
    const others = await this.snapshotsOf(p);
    throw new SnapshotError(
      `partition ${p} of ${topic}: group ${groupId} has committed offset ${count(committed)}, but there is no snapshot ${key} of the configured model (${family}, d=${schema.dim})` +
      `${others.length === 0 ? '' : `; the snapshot topic holds ${others.join(', ')} for this partition`}: the committed offset belongs to another model, and learning from it would start a fresh model part-way through the partition. ` +
      `Run the model that learned it, use a new groupId, or set missingSnapshot to 'from-earliest' (source.missingSnapshot in a pipeline config) to learn ${family} from the partition's earliest offset`,
      { source: topic, field: 'snapshot', value: key });
  }

  /** The other snapshots of this topic and partition in the store (another family's, another model name's), described. */
  private async snapshotsOf(p: number): Promise<string[]> {
    const { topic, model } = this.options;
    const keys = (await this.store.keys?.()) ?? [];
    const found: string[] = [];
    for (const key of keys) {
      if (key === snapshotKey(model, p) || !key.endsWith(`/${p}`)) continue;
      const bytes = await this.store.latest(key);
      if (bytes === undefined) continue;
      try {
        const { event, meta } = decodeSnapshotEvent(bytes, key);
        if (meta.topic === topic && meta.partition === p) found.push(`${key} (${event.snapshot.family}, d=${event.snapshot.dim}, next offset ${count(Number(meta.nextOffset))})`);
      } catch {
        continue; // not a snapshot this version reads: not one to name
      }
    }
    return found;
  }

  /** The partition's model, fresh or from `snapshot`, in a worker or in this thread, recording metrics when asked to. */
  private async openLearner(p: number, snapshot: ModelSnapshot | undefined): Promise<{ learner: Learner; close: () => Promise<void> }> {
    const { metrics, family, familyOptions, schema } = this.options;
    const partition = String(p);
    const limits = this.limits;
    if (this.options.worker ?? true) {
      const entry = this.workerDecoder === undefined ? undefined : DECODING_WORKER;
      const options = metrics === undefined ? { entry, limits } : { metrics: { partition }, entry, limits };
      const learner = snapshot === undefined
        ? await WorkerLearner.create(family, schema.dim, familyOptions as { [key: string]: JsonValue } | undefined, options)
        : await WorkerLearner.restore(snapshot, options);
      const detach = metrics?.attach(learner.messages);
      return { learner, close: async () => { await learner.close(); detach?.(); } };
    }
    const model = snapshot === undefined ? this.family.create(schema.dim, familyOptions, limits) : this.family.restore(snapshot, limits);
    const learner = new InProcessLearner(model, metrics === undefined ? undefined : new ModelMonitor(metrics.model(family, partition)));
    return { learner, close: async () => undefined };
  }

  /** A record the worker's decoder refused (its reason) or the model refused: to the dead-letter topic, as `non-finite-result` when it could not be learned finitely. */
  private refused(p: number, bad: BadRecord): void {
    const message = bad.record as PortMessage;
    const reason: DeadLetterReason = bad.code !== undefined ? bad.code as DeadLetterReason : bad.error instanceof VbstreamError && bad.error.kind === 'numerical' ? 'non-finite-result' : 'refused-by-model';
    this.deadLetter(p, reason, bad.reason, message.offset);
    this.deadLetters?.add({ reason, detail: bad.reason, topic: this.options.topic, partition: p, offset: message.offset, key: message.key, value: message.value });
  }

  private updated(p: number, event: UpdateEvent): void {
    this.applied += event.labels.length;
    this.options.metrics?.setQueueDepth(this.queueDepth);
    const run = this.runs.get(p);
    const learned = event.positions[`${this.options.topic}/${p}`];
    if (run !== undefined && learned !== undefined) {
      run.learnedOffset = learned;
      this.setLag(p, run);
    }
    const window = this.shares.get(p)?.observe(event.offered, event.rejected);
    if (window !== undefined) {
      this.options.metrics?.setDeadLetterShare(this.options.topic, p, window.share);
      if (window.changed) this.alarm(p, window);
    }
  }

  /** A partition's dead-letter share crossed its alarm (up or down): an event and the readiness condition `dead-letters`. */
  private alarm(p: number, window: DeadLetterWindow): void {
    const { readiness, onEvent } = this.options;
    const reasons = window.reasons.map((r) => `${r.reason} ${count(r.count)}`).join(', ');
    const example = window.example === undefined ? '' : `; e.g. offset ${window.example.offset}: ${window.example.reason}: ${window.example.detail}`;
    const summary = `partition ${p}: ${count(window.deadLetters)} of ${count(window.records)} records dead-lettered (${(100 * window.share).toFixed(0)}%)${reasons === '' ? '' : ` — ${reasons}`}${example}`;
    if (window.raised) this.alarms.set(p, summary);
    else this.alarms.delete(p);
    readiness?.set('dead-letters', this.alarms.size === 0, [...this.alarms.values()].join('; '));
    onEvent?.({ type: window.raised ? 'dead-letters-alarm' : 'dead-letters-normal', partition: p, share: window.share, records: window.records, deadLetters: window.deadLetters, detail: summary });
  }

  private clearAlarm(p: number): void {
    if (!this.alarms.delete(p)) return;
    this.options.readiness?.set('dead-letters', this.alarms.size === 0, [...this.alarms.values()].join('; '));
  }

  private deadLetter(p: number, reason: DeadLetterReason, detail: string, offset: string): void {
    this.shares.get(p)?.letter(reason, detail, offset);
    const { metrics } = this.options;
    if (metrics === undefined) return;
    metrics.recordDeadLetter(reason);
    metrics.model(this.options.family, String(p)).recordRejected(reason);
  }

  /** Records of the partition behind its end and not learned yet (end offset − next offset to learn; a fresh partition's count from its earliest offset). */
  private lagOf(p: number, run: PartitionRun): number {
    const end = this.ends.get(p);
    const high = Math.max(run.highWatermark, end?.high ?? 0);
    return Math.max(0, high - (run.learnedOffset ?? end?.low ?? 0));
  }

  private setLag(p: number, run: PartitionRun): void {
    this.options.metrics?.setConsumerLag(this.options.topic, p, this.lagOf(p, run));
  }

  /** Reads the end offsets every `watchMs` until stopped: the lag of every assigned partition, and the brokers' pulse (a failure starts an outage, a success ends it). */
  private watch(): Promise<void> {
    const admin = this.admin as AdminPort;
    return brokerPulse({
      read: () => admin.fetchTopicOffsets(this.options.topic),
      seen: (offsets) => {
        for (const { partition, high, low } of offsets) this.ends.set(partition, { high: Number(high), low: Number(low) });
        for (const [p, run] of this.runs) this.setLag(p, run);
      },
      outage: this.outage, everyMs: this.timings.watchMs, waker: this.watchWaker,
      running: () => !this.life.stopping && this.life.failure === undefined, stopping: () => this.life.stopping, fail: (error) => this.fail(error),
    });
  }

  /** Decodes `messages[from, to)` in this thread (models in this thread, or a custom decoder such as Avro's, whose schema lookups are this thread's I/O); refused records to the dead letters. */
  private async decode(messages: readonly PortMessage[], from: number, to: number, nextOffset: number | null, topic: string, p: number): Promise<ReturnType<typeof decodeChunk>> {
    const sink = this.deadLetters as DeadLetterSink;
    if (this.decoder.prepare !== undefined) await this.decoder.prepare(messages.slice(from, to).map((message) => message.value));
    return decodeChunk(messages, from, to, nextOffset, {
      topic, partition: p, dim: this.options.schema.dim, decoder: this.decoder, x: this.x, y: this.y, weights: this.options.schema.weight === undefined ? undefined : this.w,
      bad: (message, reason, detail) => {
        this.deadLetter(p, reason, detail, message.offset);
        sink.add({ reason, detail, topic, partition: p, offset: message.offset, key: message.key, value: message.value });
      },
    });
  }

  /**
   * Records of a fetched batch to hand on in one chunk: a minibatch (`chunkSize`); for a decoding
   * worker as many as fit in {@link RECORDS_PER_MESSAGE} and in `queueCapacity` (the valve then
   * pauses where it did), but no more than reach the next snapshot every `snapshotEvery` records, so
   * that it is asked for after the same records as minibatch by minibatch.
   */
  private chunkSpan(run: PartitionRun): number {
    if (this.workerDecoder === undefined) return this.chunkSize;
    const fit = Math.max(1, Math.floor(Math.min(RECORDS_PER_MESSAGE, this.queueCapacity) / this.chunkSize));
    const untilSnapshot = Math.max(1, Math.ceil((this.snapshotEvery - run.sinceRequest) / this.chunkSize));
    return Math.min(fit, untilSnapshot) * this.chunkSize;
  }

  /** The consume loop for one fetched batch of one partition: waits until every partition assigned at the batch's generation is restored. */
  private async consume(batch: SourceBatch): Promise<void> {
    const source = this.source as KafkaSource;
    const p = batch.partition;
    if (!(await this.restores.admit(batch.generation))) return;
    const run = this.runs.get(p);
    if (run === undefined || run.generation !== batch.generation || run.failure !== undefined || !run.live) return;
    run.highWatermark = Math.max(run.highWatermark, batch.highWatermark);
    const messages = batch.messages;
    const first = Number(messages[0].offset);
    const next = run.nextOffset;
    // The first batch after a restore starts where the snapshot ends; a later one past the next
    // offset (fetched before a pause cut the previous one short) is fetched again from there, once:
    // a gap that remains is the topic's (compaction). Records below the next offset are skipped.
    if (next !== null && run.soughtTo !== next && (run.positioned ? first > next : first !== next)) {
      run.positioned = true;
      run.soughtTo = next;
      source.seek(p, next);
      return;
    }
    run.positioned = true;
    let i = 0;
    while (i < messages.length && batch.active() && run.live && run.failure === undefined) {
      const end = Math.min(messages.length, i + this.chunkSpan(run));
      const chunk = this.workerDecoder !== undefined
        ? encodeChunk(messages, i, end, run.nextOffset, { topic: batch.topic, partition: p, decoder: this.workerDecoder, minibatch: this.chunkSize })
        : await this.decode(messages, i, end, run.nextOffset, batch.topic, p);
      i = end;
      if (chunk.consumed > 0) {
        run.nextOffset = chunk.nextOffset;
        run.learnedOffset ??= Number(messages[0].offset);
        run.push(chunk.chunk);
      }
      batch.resolve(messages[end - 1].offset);
      this.setLag(p, run);
      if (run.sinceRequest >= this.snapshotEvery) await run.snapshotBehindFeed('records');
      await batch.heartbeat();
      await new Promise<void>((resume) => setImmediate(resume)); // let timers and I/O run between chunks
    }
    if (run.nextOffset !== null && run.nextOffset >= run.highWatermark && run.caughtUpSnapshotDue) await run.snapshot('caught-up');
  }
}
