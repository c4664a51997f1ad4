import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import type { FamilyDescriptor } from '../../src/core/family-descriptor.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { optionChecks } from '../../src/core/option-checks.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { getFamily } from '../../src/registry.js';
import type { DeadLetterReason } from './dead-letter-reason.js';
import { DeadLetterSink } from './dead-letter-sink.js';
import { ensureTopic } from './ensure-topic.js';
import type { KafkaPort, ProducerPort } from './kafka-port.js';
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
  /** Records per `update` call (and per heartbeat); default 1,000. */
  readonly chunkSize?: number;
  readonly onEvent?: (event: LearnerEvent) => void;
}

interface PartitionState {
  readonly model: OnlineModel;
  readonly generation: number;
  /** Offset of the next record to apply; null until the first record of a fresh partition. */
  nextOffset: number | null;
  snapshotOffset: number | null;
  sinceSnapshot: number;
  /** Whether the first batch after the restore has been checked against `nextOffset`. */
  positioned: boolean;
  highWatermark: number;
}

/**
 * One model per assigned partition of a topic, fed by a consumer group, with exactly-once
 * posterior state. Each partition's state is (model, next offset). Records are decoded (bad ones to
 * the dead-letter topic), applied in offset order in chunks, and resolved; every `snapshotEvery`
 * records, when a partition catches up with its end, and at shutdown, the learner flushes dead
 * letters, writes the snapshot (with the next offset in its `meta`) to the store and waits until it
 * is durable, and only then commits that offset. After every group join a partition is restored
 * from its latest snapshot and the consumer seeks to the offset stored in it; records below that
 * offset are skipped. So a crash at any point neither loses a record nor counts one twice.
 */
export class PartitionedLearner {
  private readonly descriptor: FamilyDescriptor;
  private readonly decoder: RecordDecoder;
  private readonly snapshotEvery: number;
  private readonly chunkSize: number;
  private readonly states = new Map<number, PartitionState>();
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  private source: KafkaSource | undefined;
  private producer: ProducerPort | undefined;
  private deadLetters: DeadLetterSink | undefined;
  private inflight: Promise<void> = Promise.resolve();
  private stopping = false;
  private applied = 0;

  constructor(private readonly port: KafkaPort, private readonly store: SnapshotStore, readonly options: PartitionedLearnerOptions) {
    this.descriptor = getFamily(options.family);
    this.decoder = new RecordDecoder({ ...options.schema, task: this.descriptor.task });
    this.snapshotEvery = optionChecks.positiveInteger('snapshotEvery', options.snapshotEvery, 10_000);
    this.chunkSize = optionChecks.positiveInteger('chunkSize', options.chunkSize, 1_000);
    this.x = new Float64Array(this.chunkSize * options.schema.dim);
    this.y = new Float64Array(this.chunkSize);
    this.descriptor.create(options.schema.dim, options.familyOptions); // fails fast on bad options
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
    this.source = new KafkaSource(this.port, { topic: this.options.topic, groupId: this.options.groupId, sessionTimeoutMs: this.options.sessionTimeoutMs });
    this.source.onAssignment((assigned, generation) => {
      for (const p of [...this.states.keys()]) if (!assigned.includes(p)) this.states.delete(p);
      this.options.onEvent?.({ type: 'assigned', partitions: assigned, generation });
    });
    await this.source.start((batch) => {
      const work = this.stopping ? Promise.resolve() : this.handle(batch);
      this.inflight = work.catch(() => undefined);
      return work;
    }, onFatal);
  }

  /** The source, for backpressure (`pause` / `resume` per partition). */
  get kafkaSource(): KafkaSource | undefined {
    return this.source;
  }

  /** Records applied to models by this process (replays after a restore count again). */
  get recordsApplied(): number {
    return this.applied;
  }

  /** Dead letters by reason. */
  deadLettersByReason(): Record<DeadLetterReason, number> | undefined {
    return this.deadLetters?.countsByReason();
  }

  /** Per owned partition: the next offset to apply and the records behind it (end − next). */
  lag(): Map<number, { nextOffset: number | null; lag: number }> {
    const lag = new Map<number, { nextOffset: number | null; lag: number }>();
    for (const [p, s] of this.states) lag.set(p, { nextOffset: s.nextOffset, lag: Math.max(0, s.highWatermark - (s.nextOffset ?? 0)) });
    return lag;
  }

  /** Stops fetching, snapshots and commits every partition with unsaved records, and leaves the group. */
  async stop(): Promise<void> {
    const source = this.source;
    if (source === undefined || this.stopping) return;
    this.stopping = true;
    await this.inflight;
    for (const [p, state] of this.states) {
      if (state.generation === source.generation && state.nextOffset !== state.snapshotOffset) await this.checkpoint(p, state, source);
    }
    await source.stop();
    await this.producer?.disconnect();
  }

  private async handle(batch: SourceBatch): Promise<void> {
    const source = this.source as KafkaSource;
    const p = batch.partition;
    let state = this.states.get(p);
    if (state === undefined || state.generation !== batch.generation) state = await this.restore(p, batch.generation);
    state.highWatermark = batch.highWatermark;
    const messages = batch.messages;
    if (!state.positioned) {
      state.positioned = true;
      const first = Number(messages[0].offset);
      if (state.nextOffset !== null && first !== state.nextOffset) {
        source.seek(p, state.nextOffset);
        return;
      }
    }
    const d = this.options.schema.dim;
    const sink = this.deadLetters as DeadLetterSink;
    let i = 0;
    while (i < messages.length && batch.active()) {
      const end = Math.min(messages.length, i + this.chunkSize);
      let n = 0;
      let consumed = 0;
      for (; i < end; i++) {
        const message = messages[i];
        const offset = Number(message.offset);
        if (state.nextOffset !== null && offset < state.nextOffset) continue;
        const label = this.decoder.decode(message.value, this.x, n * d);
        if (label === undefined) {
          const { reason, detail } = this.decoder.failure;
          sink.add({ reason, detail, topic: batch.topic, partition: p, offset: message.offset, key: message.key, value: message.value });
        } else {
          this.y[n++] = label;
        }
        consumed++;
        state.nextOffset = offset + 1;
      }
      if (n > 0) state.model.update({ x: this.x, y: this.y, n, d });
      this.applied += n;
      state.sinceSnapshot += consumed;
      batch.resolve(messages[i - 1].offset);
      if (state.sinceSnapshot >= this.snapshotEvery) await this.checkpoint(p, state, source);
      await batch.heartbeat();
      await new Promise<void>((resume) => setImmediate(resume)); // let timers and I/O run between chunks
    }
    if (state.nextOffset !== null && state.nextOffset >= batch.highWatermark && state.nextOffset !== state.snapshotOffset && batch.active()) {
      await this.checkpoint(p, state, source);
    }
  }

  private async restore(p: number, generation: number): Promise<PartitionState> {
    const bytes = await this.store.latest(snapshotKey(this.options.model, p));
    let state: PartitionState;
    if (bytes === undefined) {
      const model = this.descriptor.create(this.options.schema.dim, this.options.familyOptions);
      state = { model, generation, nextOffset: null, snapshotOffset: null, sinceSnapshot: 0, positioned: false, highWatermark: 0 };
    } else {
      const { snapshot, meta } = decodeSnapshot(bytes);
      if (meta.topic !== this.options.topic || meta.partition !== p || typeof meta.nextOffset !== 'number') {
        throw new SnapshotError(`snapshot under ${snapshotKey(this.options.model, p)} is not of ${this.options.topic} partition ${p}`, { source: this.options.topic, field: 'meta', value: meta });
      }
      const model = this.descriptor.restore(snapshot);
      state = { model, generation, nextOffset: meta.nextOffset, snapshotOffset: meta.nextOffset, sinceSnapshot: 0, positioned: false, highWatermark: 0 };
    }
    this.states.set(p, state);
    this.options.onEvent?.({ type: 'restored', partition: p, nextOffset: state.nextOffset, records: state.model.recordsSeen, fromSnapshot: bytes !== undefined });
    return state;
  }

  private async checkpoint(p: number, state: PartitionState, source: KafkaSource): Promise<void> {
    const nextOffset = state.nextOffset as number;
    const records = state.model.recordsSeen;
    await (this.deadLetters as DeadLetterSink).flush();
    const bytes = encodeSnapshot(state.model.snapshot(), { topic: this.options.topic, partition: p, nextOffset, records, model: this.options.model, family: this.options.family });
    this.options.onEvent?.({ type: 'snapshot-writing', partition: p, nextOffset, records });
    await this.store.save(snapshotKey(this.options.model, p), bytes);
    state.snapshotOffset = nextOffset;
    state.sinceSnapshot = 0;
    this.options.onEvent?.({ type: 'snapshot-durable', partition: p, nextOffset, records });
    await source.commit(p, nextOffset);
    this.options.onEvent?.({ type: 'committed', partition: p, nextOffset, records });
  }
}
