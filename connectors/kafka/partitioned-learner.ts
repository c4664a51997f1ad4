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
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { getFamily } from '../../src/registry.js';
import type { DecoderSpec } from '../../operators/worker/worker-decoders.js';
import { decodeChunk } from './decode-chunk.js';
import type { DeadLetterReason } from './dead-letter-reason.js';
import { DeadLetterSink, type DeadLetterSinkOptions } from './dead-letter-sink.js';
import { encodeChunk } from './encode-chunk.js';
import { ensureTopic } from './ensure-topic.js';
import { KafkaCheckpointer } from './kafka-checkpointer.js';
import type { KafkaPort, PortMessage, ProducerPort } from './kafka-port.js';
import { KafkaSource, type SourceBatch } from './kafka-source.js';
import type { LearnerEvent } from './learner-event.js';
import { PartitionRun } from './partition-run.js';
import { RecordDecoder } from './record-decoder.js';
import type { RecordSchema } from './record-schema.js';
import type { DecoderFactory, ValueDecoder } from './value-decoder.js';
import { restorePartition } from './restore-partition.js';
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
  readonly decoder?: DecoderFactory;
  /** Records per partition between snapshots; default 10,000. A caught-up partition is snapshotted too. */
  readonly snapshotEvery?: number;
  /** Also snapshot a partition every this many ms when records passed since its last snapshot (default: no timer). */
  readonly snapshotEveryMs?: number;
  /** Consumer-group session timeout: how long a crashed member holds its partitions; default 30 s. */
  readonly sessionTimeoutMs?: number;
  /** Most bytes per partition in one Fetch; default 256 KiB (`KafkaSourceOptions.maxBytesPerPartition` says why). */
  readonly maxBytesPerPartition?: number;
  /** Records per learn call (and per heartbeat); default 1,000. */
  readonly chunkSize?: number;
  /** Each partition's model in its own worker thread (`WorkerLearner`, default) or in this thread (`InProcessLearner`). */
  readonly worker?: boolean;
  /** Records of a partition sent to its model and not yet learned at which the partition is paused (resumed at half); default 20,000. */
  readonly queueCapacity?: number;
  /** Score each record before learning it (prequential log-loss and Brier in the metrics); default false. */
  readonly evaluate?: boolean;
  /** How dead letters are cut to the broker's limits (see `DeadLetterSink`). */
  readonly deadLetters?: Omit<DeadLetterSinkOptions, 'topicOf'>;
  /** Replication of the dead-letter topic when this learner creates it (default min(3, brokers), min.insync.replicas one less). */
  readonly topics?: TopicDurability;
  /** Longest a dead-letter flush or a snapshot save may take before the service stops with an error; default 60,000 ms. */
  readonly writeTimeoutMs?: number;
  /** Where the learner's metrics go: records by status, latency, posterior, snapshots, dead letters, consumer lag, queue depth. */
  readonly metrics?: PipelineMetrics;
  /** Conditions `model-restored` (every assigned partition restored) and `source-consuming` are kept current when given. */
  readonly readiness?: Readiness;
  readonly onEvent?: (event: LearnerEvent) => void;
}

/** The worker entry that decodes JSON values where the partition's model lives. */
const DECODING_WORKER = 'connectors/kafka/decoding-model-worker.js';

/** How often owed commits (a durable snapshot whose offset the group refused during a rebalance) are retried, ms. */
const COMMIT_RETRY_MS = 2_000;

/**
 * One model per assigned partition of a topic, fed by a consumer group, with exactly-once posterior
 * state, on the same runtime as a file pipeline. Three parts, along the consumer's own roles:
 * - assignments: after every group join each assigned partition is restored from its latest
 *   snapshot (checked against the configured family and dimension: a snapshot that does not fit
 *   stops the service with a `SnapshotError` before any offset moves) into a {@link PartitionRun}
 *   — learn → snapshots → checkpoint — with its model in a worker thread (default) or in this thread;
 *   revoked partitions are retired;
 * - the consume loop: each fetched batch is cut into chunks — with workers and JSON values packed
 *   undecoded and decoded by the partition's worker, otherwise decoded here — (bad records to the
 *   dead-letter topic, with their reason), records below the restored offset skipped, the first batch after a restore
 *   sought to it; chunks are fed without waiting for the model, behind a per-partition
 *   backpressure valve on the consumer's pause/resume; every `snapshotEvery` records and when a
 *   partition reaches its end, a snapshot is asked for and awaited;
 * - checkpointing ({@link KafkaCheckpointer}): dead letters flushed, snapshot durable, offset
 *   committed; commits refused during a rebalance are retried.
 * A crash at any point neither loses a record nor counts one twice. Any failure of a partition's
 * pipeline (a model, the snapshot store, the dead-letter producer) calls `onFatal`.
 */
export class PartitionedLearner {
  private readonly family: RuntimeFamily;
  /** The partitions' models' input limits: the schema's `maxAbsInput`, which the decoder checks first. */
  private readonly limits: InputLimits;
  private readonly decoder: ValueDecoder;
  /** The JSON decoder as the partitions' workers build it, when they decode (workers on, no custom decoder); undefined: this thread decodes. */
  private readonly workerDecoder: DecoderSpec | undefined;
  private readonly snapshotEvery: number;
  private readonly chunkSize: number;
  private readonly queueCapacity: number;
  private readonly writeTimeoutMs: number;
  private readonly runs = new Map<number, PartitionRun>();
  private readonly restoring = new Map<number, { generation: number; run: Promise<PartitionRun> }>();
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  private readonly w: Float64Array;
  private source: KafkaSource | undefined;
  private producer: ProducerPort | undefined;
  private deadLetters: DeadLetterSink | undefined;
  private inflight: Promise<void> = Promise.resolve();
  private commitTimer: NodeJS.Timeout | undefined;
  private fatal: ((error: Error) => void) | undefined;
  private failure: Error | undefined;
  private stopping = false;
  private applied = 0;

  constructor(private readonly port: KafkaPort, private readonly store: SnapshotStore, readonly options: PartitionedLearnerOptions) {
    this.family = getFamily(options.family);
    this.limits = { maxAbsInput: options.schema.maxAbsInput };
    const schema = { ...options.schema, task: this.family.task };
    this.decoder = (options.decoder ?? ((s) => new RecordDecoder(s)))(schema); // checks the schema even when the workers decode
    this.workerDecoder = (options.worker ?? true) && options.decoder === undefined ? { kind: 'kafka-json', config: schema, weighted: schema.weight !== undefined } : undefined;
    this.snapshotEvery = optionChecks.positiveInteger('snapshotEvery', options.snapshotEvery, 10_000);
    if (options.snapshotEveryMs !== undefined) optionChecks.positive('snapshotEveryMs', options.snapshotEveryMs, Number.NaN);
    this.chunkSize = optionChecks.positiveInteger('chunkSize', options.chunkSize, 1_000);
    this.queueCapacity = optionChecks.positiveInteger('queueCapacity', options.queueCapacity, 20_000);
    this.writeTimeoutMs = optionChecks.positive('writeTimeoutMs', options.writeTimeoutMs, 60_000);
    const scratch = this.workerDecoder === undefined ? this.chunkSize : 0; // decoding here needs it
    this.x = new Float64Array(scratch * options.schema.dim);
    this.y = new Float64Array(scratch);
    this.w = new Float64Array(scratch);
    this.family.create(options.schema.dim, options.familyOptions, this.limits); // fails fast on bad options
    options.readiness?.require('model-restored');
    options.readiness?.require('source-consuming');
  }

  /** Creates the dead-letter topic if needed, joins the group and starts learning. `onFatal` hears a crash of the consumer or a failed pipeline. */
  async start(onFatal: (error: Error) => void): Promise<void> {
    this.fatal = onFatal;
    const admin = this.port.admin();
    await admin.connect();
    try {
      const partitions = (await admin.fetchTopicOffsets(this.options.topic)).length;
      await ensureTopic(admin, `${this.options.topic}.dlq`, { partitions, ...this.options.topics });
    } finally {
      await admin.disconnect();
    }
    this.producer = this.port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await this.producer.connect();
    this.deadLetters = new DeadLetterSink(this.producer, this.options.deadLetters);
    const source = new KafkaSource(this.port, { topic: this.options.topic, groupId: this.options.groupId, sessionTimeoutMs: this.options.sessionTimeoutMs, maxBytesPerPartition: this.options.maxBytesPerPartition });
    this.source = source;
    source.onAssignment((assigned, generation) => this.assigned(assigned, generation));
    await source.start((batch) => {
      // vbstream's own non-retriable errors (a snapshot that does not fit the model) stop the
      // service; the rest (a rebalance under way, a snapshot store that timed out) go back to the
      // consumer, which rejoins or fetches the batch again (and reports a crash it cannot recover).
      const work = this.stopping || this.failure !== undefined ? Promise.resolve() : this.consume(batch).catch((error: unknown) => {
        if (error instanceof VbstreamError && !error.retriable) this.fail(error);
        else if (!this.stopping) throw error;
      });
      this.inflight = work.catch(() => undefined);
      return work;
    }, (error) => this.fail(error));
    this.commitTimer = setInterval(() => { for (const run of this.runs.values()) void run.checkpointer.commitOwed(); }, COMMIT_RETRY_MS);
    this.commitTimer.unref();
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

  /** Dead letters by reason. */
  deadLettersByReason(): Record<DeadLetterReason, number> | undefined {
    return this.deadLetters?.countsByReason();
  }

  /** Per owned partition: the next offset to send, the records behind it (end − next), the records queued for its model and how often backpressure paused it. */
  partitions(): Map<number, { nextOffset: number | null; lag: number; queued: number; pauses: number }> {
    const status = new Map<number, { nextOffset: number | null; lag: number; queued: number; pauses: number }>();
    for (const [p, run] of this.runs) status.set(p, { nextOffset: run.nextOffset, lag: Math.max(0, run.highWatermark - (run.nextOffset ?? 0)), queued: run.valve.depth, pauses: run.valve.pauses });
    return status;
  }

  /**
   * Stops fetching, lets every partition learn what it was sent, snapshots and commits each (a
   * final snapshot where records passed since the last, owed commits otherwise), leaves the group
   * and ends the models' workers. Rejects with the first failure if a pipeline failed.
   */
  async stop(): Promise<void> {
    const source = this.source;
    if (source === undefined || this.stopping) return;
    this.stopping = true;
    clearInterval(this.commitTimer);
    this.options.readiness?.set('source-consuming', false);
    await this.inflight;
    await Promise.allSettled([...this.restoring.values()].map((r) => r.run));
    const current = [...this.runs.values()].filter((run) => run.generation === source.generation && run.failure === undefined);
    const finished = await Promise.allSettled(current.map(async (run) => {
      await run.finish();
      await run.checkpointer.commitOwed();
    }));
    await source.stop();
    await Promise.allSettled([...this.runs.values()].map((run) => run.retire()));
    this.runs.clear();
    await this.producer?.disconnect();
    const failed = finished.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = error instanceof Error ? error : new Error(String(error));
    this.fatal?.(this.failure);
  }

  /** After a group join: retires revoked partitions and restores every assigned one. */
  private assigned(partitions: readonly number[], generation: number): void {
    for (const [p, run] of [...this.runs]) {
      if (!partitions.includes(p)) {
        this.runs.delete(p);
        void run.retire();
      }
    }
    this.options.onEvent?.({ type: 'assigned', partitions, generation });
    const { readiness } = this.options;
    readiness?.set('model-restored', false);
    Promise.all(partitions.map((p) => this.runOf(p, generation))).then(
      () => { if (this.source?.generation === generation) readiness?.set('model-restored'); },
      () => undefined, // reported by the partition's next batch (fatal, or retried when retriable)
    );
  }

  private runOf(p: number, generation: number): Promise<PartitionRun> {
    const current = this.restoring.get(p);
    if (current !== undefined && current.generation === generation) return current.run;
    const run = this.restore(p, generation);
    const entry = { generation, run };
    this.restoring.set(p, entry);
    run.catch(() => { if (this.restoring.get(p) === entry) this.restoring.delete(p); });
    return run;
  }

  private async restore(p: number, generation: number): Promise<PartitionRun> {
    const { topic, model, family, schema } = this.options;
    const restored = await restorePartition(this.store, { topic, partition: p, model, family, dim: schema.dim });
    const { learner, close } = await this.openLearner(p, restored?.snapshot);
    const source = this.source as KafkaSource;
    const nextOffset = restored?.nextOffset ?? null;
    const run = new PartitionRun({
      partition: p, generation, learner, close, nextOffset, queueCapacity: this.queueCapacity, evaluate: this.options.evaluate ?? false, everyMs: this.options.snapshotEveryMs,
      source: { pause: () => source.pause([p]), resume: () => source.resume([p]) },
      checkpointer: new KafkaCheckpointer({
        topic, partition: p, model, family, store: this.store, deadLetters: this.deadLetters as DeadLetterSink, timeoutMs: this.writeTimeoutMs,
        commit: (offset) => source.commit(p, offset), owned: () => source.generation === generation && source.assigned.includes(p),
        onEvent: this.options.onEvent,
      }, nextOffset),
      checkpointed: (checkpoint) => this.options.metrics?.model(family, String(p)).recordSnapshot(checkpoint.bytes),
      refused: (bad) => this.refused(p, bad),
      updated: (event) => this.updated(event),
      failed: (error) => this.fail(error),
    });
    if (this.restoring.get(p)?.generation !== generation || this.stopping) {
      await run.retire(); // superseded by a newer join while restoring
      return run;
    }
    const previous = this.runs.get(p);
    this.runs.set(p, run);
    if (previous !== undefined) void previous.retire();
    if (source.isPaused(p)) source.resume([p]); // paused by the previous owner's valve
    this.options.onEvent?.({ type: 'restored', partition: p, nextOffset, records: learner.recordsSeen, fromSnapshot: restored !== undefined });
    return run;
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
    this.deadLetter(p, reason);
    this.deadLetters?.add({ reason, detail: bad.reason, topic: this.options.topic, partition: p, offset: message.offset, key: message.key, value: message.value });
  }

  private updated(event: UpdateEvent): void {
    this.applied += event.labels.length;
    this.options.metrics?.setQueueDepth(this.queueDepth);
  }

  private deadLetter(p: number, reason: DeadLetterReason): void {
    const { metrics } = this.options;
    if (metrics === undefined) return;
    metrics.recordDeadLetter(reason);
    metrics.model(this.options.family, String(p)).recordRejected(reason);
  }

  /** Decodes `messages[from, to)` in this thread (models in this thread, or a custom decoder such as Avro's, whose schema lookups are this thread's I/O); refused records to the dead letters. */
  private async decode(messages: readonly PortMessage[], from: number, to: number, nextOffset: number | null, topic: string, p: number): Promise<ReturnType<typeof decodeChunk>> {
    const sink = this.deadLetters as DeadLetterSink;
    if (this.decoder.prepare !== undefined) await this.decoder.prepare(messages.slice(from, to).map((message) => message.value));
    return decodeChunk(messages, from, to, nextOffset, {
      topic, partition: p, dim: this.options.schema.dim, decoder: this.decoder, x: this.x, y: this.y, weights: this.options.schema.weight === undefined ? undefined : this.w,
      bad: (message, reason, detail) => {
        this.deadLetter(p, reason);
        sink.add({ reason, detail, topic, partition: p, offset: message.offset, key: message.key, value: message.value });
      },
    });
  }

  /** The consume loop for one fetched batch of one partition. */
  private async consume(batch: SourceBatch): Promise<void> {
    const source = this.source as KafkaSource;
    const p = batch.partition;
    const run = await this.runOf(p, batch.generation);
    if (run.failure !== undefined || !run.live) return;
    run.highWatermark = batch.highWatermark;
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
    const { metrics } = this.options;
    let i = 0;
    while (i < messages.length && batch.active() && run.live && run.failure === undefined) {
      const end = Math.min(messages.length, i + this.chunkSize);
      const chunk = this.workerDecoder !== undefined
        ? encodeChunk(messages, i, end, run.nextOffset, { topic: batch.topic, partition: p, decoder: this.workerDecoder })
        : await this.decode(messages, i, end, run.nextOffset, batch.topic, p);
      i = end;
      if (chunk.consumed > 0) {
        run.nextOffset = chunk.nextOffset;
        run.push(chunk.chunk);
      }
      batch.resolve(messages[end - 1].offset);
      metrics?.setConsumerLag(batch.topic, p, Math.max(0, batch.highWatermark - (run.nextOffset ?? 0)));
      if (run.sinceRequest >= this.snapshotEvery) await run.snapshot('records');
      await batch.heartbeat();
      await new Promise<void>((resume) => setImmediate(resume)); // let timers and I/O run between chunks
    }
    if (run.nextOffset !== null && run.nextOffset >= batch.highWatermark && run.sinceRequest > 0 && run.live) await run.snapshot('caught-up');
  }
}
