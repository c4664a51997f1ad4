import { randomUUID } from 'node:crypto';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { ensureTopic } from './ensure-topic.js';
import type { AdminPort, ConsumerPort, KafkaPort, PortHeaders, ProducerPort } from './kafka-port.js';
import type { SnapshotStore } from './snapshot-store.js';
import type { TopicDurability } from './topic-durability.js';

/** The header naming a snapshot record's writer (a store) and its save, `<writer id>/<save number>`. */
const SAVE_HEADER = 'vbstream-save';

/**
 * A {@link SnapshotStore} on a compacted Kafka topic (one partition by default, `cleanup.policy=compact`), keyed
 * by snapshot key (`model/partition`). `save` produces with acks from all in-sync replicas through
 * an idempotent producer and resolves once the broker has acknowledged. A reader (its own
 * consumer group, never committing) tails the topic from the beginning into a key → bytes map;
 * `latest` first waits until the reader has caught up with the topic's end as of the call, so it
 * sees every save acknowledged before it was called, by any process. Each save's record names this
 * store and the save ({@link SAVE_HEADER}): the reader takes the bytes of the store's own saves from
 * the save, in the record's place in the topic, instead of copying them back from the fetch (a copy
 * of every snapshot written, 227 KB each for adf-logit at p = 10, its EP window of 2,000 records); the records of other writers,
 * and of this store's earlier runs, are copied.
 */
export class KafkaSnapshotStore implements SnapshotStore {
  private readonly values = new Map<string, Uint8Array>();
  /** This store's id in {@link SAVE_HEADER}. */
  private readonly writer = randomUUID();
  private saves = 0;
  /** The bytes of this store's saves not yet read back, by save number. */
  private readonly unread = new Map<number, { readonly key: string; readonly bytes: Uint8Array }>();
  /** The reader's position per partition (the offset after the last record read). */
  private readonly positions = new Map<number, number>();
  private waiters: (() => void)[] = [];
  private failure: Error | undefined;

  private constructor(
    readonly topic: string,
    private readonly admin: AdminPort,
    private readonly producer: ProducerPort,
    private readonly reader: ConsumerPort,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Creates the topic if needed (compacted; `partitions` default 1, the durability of
   * {@link TopicDurability}, and any further topic `config`), connects the producer and starts the reader.
   */
  static async open(port: KafkaPort, options: { topic: string; timeoutMs?: number; partitions?: number; config?: { readonly [name: string]: string } } & TopicDurability): Promise<KafkaSnapshotStore> {
    const admin = port.admin();
    await admin.connect();
    await ensureTopic(admin, options.topic, {
      partitions: options.partitions ?? 1, replicationFactor: options.replicationFactor, minInsyncReplicas: options.minInsyncReplicas,
      config: { 'cleanup.policy': 'compact', 'min.cleanable.dirty.ratio': '0.1', 'segment.ms': '600000', 'max.message.bytes': '16777216', ...options.config },
    });
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const reader = port.consumer({ groupId: `vbstream-snapshot-reader-${randomUUID()}`, maxWaitTimeInMs: 100, maxBytesPerPartition: 16_777_216 });
    const store = new KafkaSnapshotStore(options.topic, admin, producer, reader, options.timeoutMs ?? 60_000);
    await reader.connect();
    await reader.subscribe({ topics: [options.topic], fromBeginning: true });
    reader.on('consumer.crash', ({ payload }) => {
      if (!payload.restart) store.fail(payload.error);
    });
    await reader.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          const key = message.key?.toString('utf8');
          if (key === undefined) continue;
          const own = store.ownSave(key, message.headers?.[SAVE_HEADER]);
          if (own !== undefined) store.values.set(key, own);
          else if (message.value === null) store.values.delete(key);
          else store.values.set(key, new Uint8Array(message.value));
        }
        store.advance(batch.partition, Number(batch.lastOffset()) + 1);
      },
    });
    return store;
  }

  /** Writes `bytes` as `key`'s snapshot; the store keeps them (not a copy) as the key's value until a later record of the key: the caller must not change them. */
  async save(key: string, bytes: Uint8Array): Promise<void> {
    const save = ++this.saves;
    this.unread.set(save, { key, bytes });
    try {
      await this.producer.send({ topic: this.topic, messages: [{ key, value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), headers: { [SAVE_HEADER]: `${this.writer}/${save}` } }], acks: -1 });
    } catch (error) {
      this.unread.delete(save); // if the record was written after all, the reader copies it
      throw error;
    }
  }

  /** A tombstone for `key` (compaction drops its records); resolves once acknowledged. */
  async remove(key: string): Promise<void> {
    await this.producer.send({ topic: this.topic, messages: [{ key, value: null }], acks: -1 });
  }

  async latest(key: string): Promise<Uint8Array | undefined> {
    await this.catchUp();
    return this.values.get(key);
  }

  /** Every key with a snapshot (as of the call), in no particular order. */
  async keys(): Promise<string[]> {
    await this.catchUp();
    return [...this.values.keys()];
  }

  /** Stops the reader and disconnects. */
  async close(): Promise<void> {
    await this.reader.disconnect();
    await this.producer.disconnect();
    await this.admin.disconnect();
  }

  private async catchUp(): Promise<void> {
    const ends = (await this.admin.fetchTopicOffsets(this.topic)).map(({ partition, high, low }) => ({ partition, high: Number(high), low: Number(low) }));
    const behind = () => ends.filter(({ partition, high, low }) => high > low && (this.positions.get(partition) ?? 0) < high);
    const deadline = Date.now() + this.timeoutMs;
    while (behind().length > 0) {
      if (this.failure !== undefined) throw this.failure;
      if (Date.now() > deadline) {
        const where = behind().map(({ partition, high }) => `partition ${partition} at ${this.positions.get(partition) ?? 0} of ${high}`).join(', ');
        throw new VbstreamError('io', `snapshot reader did not catch up within ${this.timeoutMs} ms (${where})`, { source: this.topic }, true);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }

  /**
   * The bytes of this store's save that a record of `key` with save header `tag` is, or undefined
   * for another writer's record (or one whose save failed). Saves of `key` numbered before it are
   * forgotten too: they precede it in the key's partition (one producer, one request at a time).
   */
  private ownSave(key: string, tag: PortHeaders[string]): Uint8Array | undefined {
    if (tag === undefined || Array.isArray(tag)) return undefined;
    const text = tag.toString();
    const slash = text.lastIndexOf('/');
    if (slash < 0 || text.slice(0, slash) !== this.writer) return undefined;
    const save = Number(text.slice(slash + 1));
    const bytes = this.unread.get(save)?.bytes;
    for (const [number, unread] of this.unread) if (number <= save && unread.key === key) this.unread.delete(number);
    return bytes;
  }

  private advance(partition: number, next: number): void {
    if (next > (this.positions.get(partition) ?? 0)) this.positions.set(partition, next);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private fail(error: Error): void {
    this.failure = error;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
