import { ModelMonitor } from '../../monitoring/model-monitor.js';
import type { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import type { Readiness } from '../../monitoring/readiness.js';
import { BackpressureValve } from '../../operators/backpressure-valve.js';
import { encodeSnapshotEvent } from '../../operators/encode-snapshot-event.js';
import { InProcessLearner } from '../../operators/in-process-learner.js';
import type { Learner } from '../../operators/learner.js';
import { WorkerLearner } from '../../operators/worker/worker-learner.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import type { FamilyDescriptor } from '../../src/core/family-descriptor.js';
import type { JsonValue, ModelSnapshot } from '../../src/core/model-snapshot.js';
import { optionChecks } from '../../src/core/option-checks.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { getFamily } from '../../src/registry.js';
import type { DeadLetterReason } from './dead-letter-reason.js';
import { DeadLetterSink } from './dead-letter-sink.js';
import { ensureTopic } from './ensure-topic.js';
import type { KafkaPort, PortMessage, ProducerPort } from './kafka-port.js';
import { KafkaSource, type SourceBatch } from './kafka-source.js';
import type { LearnerEvent } from './learner-event.js';
import { RecordDecoder, type RecordSchema } from './record-decoder.js';
import { snapshotKey } from './snapshot-key.js';
import type { SnapshotStore } from './snapshot-store.js';

/** Options of {@link PartitionedLearner}. */
export interface PartitionedLearnerOptions {
  readonly topic: string;
  readonly groupId: string;
  /** Model name: snapshot keys are `model/partition`. */
  readonly model: string;
  /** Registry id of the family, e.g. `vb-linear`. */
  readonly family: string;
  readonly familyOptions?: unknown;
  /** The record schema; the label check follows the family's task. */
  readonly schema: Omit<RecordSchema, 'task' | 'requireLabel'>;
  /** Records per partition between snapshots; default 10,000. A caught-up partition is snapshotted too. */
  readonly snapshotEvery?: number;
  /** Consumer-group session timeout: how long a crashed member holds its partitions; default 30 s. */
  readonly sessionTimeoutMs?: number;
  /** Records per learn call (and per heartbeat); default 1,000. */
  readonly chunkSize?: number;
  /** Each partition's model in its own worker thread (`WorkerLearner`, default) or in this thread (`InProcessLearner`). */
  readonly worker?: boolean;
  /** Records of a partition sent to its model and not yet learned at which the partition is paused (resumed at half); default 20,000. */
  readonly queueCapacity?: number;
  /** Score each record before learning it (prequential log-loss and Brier in the metrics); default false. */
  readonly evaluate?: boolean;
  /** Where the learner's metrics go: records by status, latency, posterior, snapshots, dead letters, consumer lag, queue depth. */
  readonly metrics?: PipelineMetrics;
  /** Conditions `model-restored` (every assigned partition restored) and `source-consuming` are kept current when given. */
  readonly readiness?: Readiness;
  readonly onEvent?: (event: LearnerEvent) => void;
}

interface PartitionState {
  readonly learner: Learner;
  readonly generation: number;
  readonly valve: BackpressureValve;
  /** Ends the model's worker (after its queued work) and stops applying its metric deltas. */
  readonly close: () => Promise<void>;
  /** False once the partition is revoked or restored again: its valve no longer pauses or resumes. */
  live: boolean;
  /** Offset of the next record to send to the model; null until the first record of a fresh partition. */
  nextOffset: number | null;
  snapshotOffset: number | null;
  sinceSnapshot: number;
  /** Whether the first batch after the restore has been checked against `nextOffset`. */
  positioned: boolean;
  /** The offset the consumer was last told to seek to. */
  soughtTo: number | null;
  highWatermark: number;
  /** Records the model holds after the latest learn call sent (calls are answered in order). */
  last: Promise<number>;
  /** The first learn call that failed: nothing after it is snapshotted or committed. */
  failure?: unknown;
}

/**
 * One model per assigned partition of a topic, fed by a consumer group, with exactly-once
 * posterior state. Each partition's model runs through the runtime's `Learner`: in its own worker
 * thread by default (so heartbeats and `/metrics` stay responsive), or in this thread. Records are
 * decoded (bad ones to the dead-letter topic), sent to the model in offset order in chunks without
 * waiting for each update, and resolved; a per-partition {@link BackpressureValve} pauses the
 * partition when its queued records reach `queueCapacity` and resumes it when they drain. Every
 * `snapshotEvery` records, when a partition catches up with its end, and at shutdown, the learner
 * asks the model for its state (answered after every chunk sent before), flushes dead letters,
 * writes the snapshot (with the next offset in its `meta`) to the store and waits until it is
 * durable, and only then commits that offset. After every group join each assigned partition is
 * restored from its latest snapshot and the consumer seeks to the offset stored in it; records below
 * that offset are skipped. So a crash at any point neither loses a record nor counts one twice.
 */
export class PartitionedLearner {
  private readonly descriptor: FamilyDescriptor;
  private readonly decoder: RecordDecoder;
  private readonly snapshotEvery: number;
  private readonly chunkSize: number;
  private readonly queueCapacity: number;
  private readonly states = new Map<number, PartitionState>();
  private readonly restoring = new Map<number, { generation: number; state: Promise<PartitionState> }>();
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  private source: KafkaSource | undefined;
  private producer: ProducerPort | undefined;
  private deadLetters: DeadLetterSink | undefined;
  private inflight: Promise<void> = Promise.resolve();
  private stopping = false;
  private applied = 0;
  private queued = 0;

  constructor(private readonly port: KafkaPort, private readonly store: SnapshotStore, readonly options: PartitionedLearnerOptions) {
    this.descriptor = getFamily(options.family);
    this.decoder = new RecordDecoder({ ...options.schema, task: this.descriptor.task });
    this.snapshotEvery = optionChecks.positiveInteger('snapshotEvery', options.snapshotEvery, 10_000);
    this.chunkSize = optionChecks.positiveInteger('chunkSize', options.chunkSize, 1_000);
    this.queueCapacity = optionChecks.positiveInteger('queueCapacity', options.queueCapacity, 20_000);
    this.x = new Float64Array(this.chunkSize * options.schema.dim);
    this.y = new Float64Array(this.chunkSize);
    this.descriptor.create(options.schema.dim, options.familyOptions); // fails fast on bad options
    options.readiness?.require('model-restored');
    options.readiness?.require('source-consuming');
  }

  /** Creates the dead-letter topic if needed, joins the group and starts learning. `onFatal` hears a crash of the consumer. */
  async start(onFatal: (error: Error) => void): Promise<void> {
    const admin = this.port.admin();
    await admin.connect();
    const partitions = (await admin.fetchTopicOffsets(this.options.topic)).length;
    await ensureTopic(admin, `${this.options.topic}.dlq`, { partitions });
    await admin.disconnect();
    this.producer = this.port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await this.producer.connect();
    this.deadLetters = new DeadLetterSink(this.producer);
    const source = new KafkaSource(this.port, { topic: this.options.topic, groupId: this.options.groupId, sessionTimeoutMs: this.options.sessionTimeoutMs });
    this.source = source;
    source.onAssignment((assigned, generation) => this.assigned(assigned, generation));
    await source.start((batch) => {
      const work = this.stopping ? Promise.resolve() : this.handle(batch);
      this.inflight = work.catch(() => undefined);
      return work;
    }, onFatal);
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
    return this.queued;
  }

  /** Dead letters by reason. */
  deadLettersByReason(): Record<DeadLetterReason, number> | undefined {
    return this.deadLetters?.countsByReason();
  }

  /** Per owned partition: the next offset to send, the records behind it (end − next), the records queued for its model and how often backpressure paused it. */
  partitions(): Map<number, { nextOffset: number | null; lag: number; queued: number; pauses: number }> {
    const status = new Map<number, { nextOffset: number | null; lag: number; queued: number; pauses: number }>();
    for (const [p, s] of this.states) status.set(p, { nextOffset: s.nextOffset, lag: Math.max(0, s.highWatermark - (s.nextOffset ?? 0)), queued: s.valve.depth, pauses: s.valve.pauses });
    return status;
  }

  /** Stops fetching, snapshots and commits every partition with unsaved records, leaves the group and ends the models' workers. */
  async stop(): Promise<void> {
    const source = this.source;
    if (source === undefined || this.stopping) return;
    this.stopping = true;
    this.options.readiness?.set('source-consuming', false);
    await this.inflight;
    await Promise.allSettled([...this.restoring.values()].map((r) => r.state));
    for (const [p, state] of this.states) {
      if (state.generation === source.generation && state.failure === undefined && state.nextOffset !== state.snapshotOffset) await this.checkpoint(p, state, source);
    }
    await source.stop();
    for (const state of this.states.values()) await this.retire(state);
    this.states.clear();
    await this.producer?.disconnect();
  }

  /** After a group join: retires revoked partitions and restores every assigned one. */
  private assigned(partitions: readonly number[], generation: number): void {
    for (const [p, state] of [...this.states]) {
      if (!partitions.includes(p)) {
        this.states.delete(p);
        void this.retire(state);
      }
    }
    this.options.onEvent?.({ type: 'assigned', partitions, generation });
    const { readiness } = this.options;
    readiness?.set('model-restored', false);
    Promise.all(partitions.map((p) => this.stateOf(p, generation))).then(
      () => { if (this.source?.generation === generation) readiness?.set('model-restored'); },
      () => undefined, // the failed restore is retried, and reported, by the partition's next batch
    );
  }

  private stateOf(p: number, generation: number): Promise<PartitionState> {
    const current = this.restoring.get(p);
    if (current !== undefined && current.generation === generation) return current.state;
    const state = this.restore(p, generation);
    const entry = { generation, state };
    this.restoring.set(p, entry);
    state.catch(() => { if (this.restoring.get(p) === entry) this.restoring.delete(p); });
    return state;
  }

  private async retire(state: PartitionState): Promise<void> {
    state.live = false;
    await state.close();
  }

  private async handle(batch: SourceBatch): Promise<void> {
    const source = this.source as KafkaSource;
    const p = batch.partition;
    const state = await this.stateOf(p, batch.generation);
    if (state.failure !== undefined) throw state.failure;
    state.highWatermark = batch.highWatermark;
    const messages = batch.messages;
    const first = Number(messages[0].offset);
    const next = state.nextOffset;
    // The first batch after a restore starts where the snapshot ends; a later one past the next
    // offset (fetched before a pause cut the previous one short) is fetched again from there, once:
    // a gap that remains is the topic's (compaction). Records below the next offset are skipped.
    if (next !== null && state.soughtTo !== next && (state.positioned ? first > next : first !== next)) {
      state.positioned = true;
      state.soughtTo = next;
      source.seek(p, next);
      return;
    }
    state.positioned = true;
    const d = this.options.schema.dim;
    const sink = this.deadLetters as DeadLetterSink;
    const { metrics } = this.options;
    let i = 0;
    while (i < messages.length && batch.active()) {
      const end = Math.min(messages.length, i + this.chunkSize);
      const good: PortMessage[] = [];
      let consumed = 0;
      for (; i < end; i++) {
        const message = messages[i];
        const offset = Number(message.offset);
        if (state.nextOffset !== null && offset < state.nextOffset) continue;
        const label = this.decoder.decode(message.value, this.x, good.length * d);
        if (label === undefined) {
          const { reason, detail } = this.decoder.failure;
          this.deadLetter(p, reason);
          sink.add({ reason, detail, topic: batch.topic, partition: p, offset: message.offset, key: message.key, value: message.value });
        } else {
          this.y[good.length] = label;
          good.push(message);
        }
        consumed++;
        state.nextOffset = offset + 1;
      }
      if (good.length > 0) this.send(state, p, batch.topic, good);
      state.sinceSnapshot += consumed;
      batch.resolve(messages[i - 1].offset);
      metrics?.setConsumerLag(batch.topic, p, Math.max(0, batch.highWatermark - (state.nextOffset ?? 0)));
      if (state.sinceSnapshot >= this.snapshotEvery) await this.checkpoint(p, state, source);
      await batch.heartbeat();
      await new Promise<void>((resume) => setImmediate(resume)); // let timers and I/O run between chunks
    }
    if (state.nextOffset !== null && state.nextOffset >= batch.highWatermark && state.nextOffset !== state.snapshotOffset && batch.active()) {
      await this.checkpoint(p, state, source);
    }
  }

  /** Sends the decoded chunk (`good`, in `this.x` / `this.y`) to the partition's model without waiting for it. */
  private send(state: PartitionState, p: number, topic: string, good: readonly PortMessage[]): void {
    const n = good.length;
    const d = this.options.schema.dim;
    const batch = { x: this.x.slice(0, n * d), y: this.y.slice(0, n), n, d };
    const rows = Float64Array.from(good, (m) => Number(m.offset));
    this.enqueued(state, n);
    state.last = new Promise<Awaited<ReturnType<Learner['learn']>>>((resolve) => resolve(state.learner.learn(batch, rows, this.options.evaluate ?? false))).then(
      (outcome) => {
        for (const { index, error } of outcome.rejected) {
          const message = good[index];
          this.deadLetter(p, 'refused-by-model');
          this.deadLetters?.add({ reason: 'refused-by-model', detail: error.message, topic, partition: p, offset: message.offset, key: message.key, value: message.value });
        }
        this.applied += n - outcome.rejected.length;
        return outcome.recordsSeen;
      },
      (error: unknown) => {
        state.failure ??= error;
        return Number.NaN;
      },
    ).finally(() => this.enqueued(state, -n));
  }

  private enqueued(state: PartitionState, records: number): void {
    this.queued += records;
    if (records > 0) state.valve.enter(records);
    else state.valve.leave(-records);
    this.options.metrics?.setQueueDepth(this.queued);
  }

  private deadLetter(p: number, reason: DeadLetterReason): void {
    const { metrics } = this.options;
    if (metrics === undefined) return;
    metrics.recordDeadLetter(reason);
    metrics.model(this.options.family, String(p)).recordRejected(reason);
  }

  private async restore(p: number, generation: number): Promise<PartitionState> {
    const bytes = await this.store.latest(snapshotKey(this.options.model, p));
    let snapshot: ModelSnapshot | undefined;
    let nextOffset: number | null = null;
    if (bytes !== undefined) {
      const decoded = decodeSnapshot(bytes);
      const { meta } = decoded;
      if (meta.topic !== this.options.topic || meta.partition !== p || typeof meta.nextOffset !== 'number') {
        throw new SnapshotError(`snapshot under ${snapshotKey(this.options.model, p)} is not of ${this.options.topic} partition ${p}`, { source: this.options.topic, field: 'meta', value: meta });
      }
      snapshot = decoded.snapshot;
      nextOffset = meta.nextOffset;
    }
    const { learner, close } = await this.openLearner(p, snapshot);
    const source = this.source as KafkaSource;
    const state: PartitionState = {
      learner, close, generation, live: true, nextOffset, snapshotOffset: nextOffset, sinceSnapshot: 0, positioned: false, soughtTo: null, highWatermark: 0, last: Promise.resolve(learner.recordsSeen),
      valve: new BackpressureValve({
        pause: () => { if (state.live) source.pause([p]); },
        resume: () => { if (state.live) source.resume([p]); },
      }, this.queueCapacity),
    };
    if (this.restoring.get(p)?.generation !== generation || this.stopping) {
      await close(); // superseded by a newer join while restoring
      return state;
    }
    const previous = this.states.get(p);
    this.states.set(p, state);
    if (previous !== undefined) void this.retire(previous);
    if (source.isPaused(p)) source.resume([p]); // paused by the previous owner's valve
    this.options.onEvent?.({ type: 'restored', partition: p, nextOffset, records: learner.recordsSeen, fromSnapshot: bytes !== undefined });
    return state;
  }

  /** The partition's model, fresh or from `snapshot`, in a worker or in this thread, recording metrics when asked to. */
  private async openLearner(p: number, snapshot: ModelSnapshot | undefined): Promise<{ learner: Learner; close: () => Promise<void> }> {
    const { metrics, family, familyOptions, schema } = this.options;
    const partition = String(p);
    if (this.options.worker ?? true) {
      const options = metrics === undefined ? {} : { metrics: { partition } };
      const learner = snapshot === undefined
        ? await WorkerLearner.create(family, schema.dim, familyOptions as { [key: string]: JsonValue } | undefined, options)
        : await WorkerLearner.restore(snapshot, options);
      const detach = metrics?.attach(learner.messages);
      return { learner, close: async () => { await learner.close(); detach?.(); } };
    }
    const model = snapshot === undefined ? this.descriptor.create(schema.dim, familyOptions) : this.descriptor.restore(snapshot);
    const learner = new InProcessLearner(model, metrics === undefined ? undefined : new ModelMonitor(metrics.model(family, partition)));
    return { learner, close: async () => undefined };
  }

  private async checkpoint(p: number, state: PartitionState, source: KafkaSource): Promise<void> {
    const nextOffset = state.nextOffset as number;
    // The snapshot request queues behind every chunk sent so far, so it holds exactly the records below nextOffset.
    const [records, snapshot] = await Promise.all([state.last, state.learner.snapshot()]);
    if (state.failure !== undefined) throw state.failure;
    await (this.deadLetters as DeadLetterSink).flush();
    const { topic, model, family } = this.options;
    const bytes = encodeSnapshotEvent(
      { snapshot, recordsSeen: records, positions: { [`${topic}/${p}`]: nextOffset }, createdAt: new Date().toISOString(), reason: 'records' },
      { topic, partition: p, nextOffset, records, model, family },
    );
    this.options.onEvent?.({ type: 'snapshot-writing', partition: p, nextOffset, records });
    await this.store.save(snapshotKey(model, p), bytes);
    state.snapshotOffset = nextOffset;
    state.sinceSnapshot = 0;
    this.options.metrics?.model(family, String(p)).recordSnapshot(bytes.byteLength);
    this.options.onEvent?.({ type: 'snapshot-durable', partition: p, nextOffset, records });
    await source.commit(p, nextOffset);
    this.options.onEvent?.({ type: 'committed', partition: p, nextOffset, records });
  }
}
