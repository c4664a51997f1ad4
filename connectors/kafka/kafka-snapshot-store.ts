import { randomUUID } from 'node:crypto';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { ensureTopic } from './ensure-topic.js';
import type { AdminPort, ConsumerPort, KafkaPort, ProducerPort } from './kafka-port.js';
import type { SnapshotStore } from './snapshot-store.js';
import type { TopicDurability } from './topic-durability.js';

/**
 * A {@link SnapshotStore} on a compacted Kafka topic (one partition by default, `cleanup.policy=compact`), keyed
 * by snapshot key (`model/partition`). `save` produces with acks from all in-sync replicas through
 * an idempotent producer and resolves once the broker has acknowledged. A reader (its own
 * consumer group, never committing) tails the topic from the beginning into a key → bytes map;
 * `latest` first waits until the reader has caught up with the topic's end as of the call, so it
 * sees every save acknowledged before it was called, by any process.
 */
export class KafkaSnapshotStore implements SnapshotStore {
  private readonly values = new Map<string, Uint8Array>();
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
          if (message.value === null) store.values.delete(key);
          else store.values.set(key, new Uint8Array(message.value));
        }
        store.advance(batch.partition, Number(batch.lastOffset()) + 1);
      },
    });
    return store;
  }

  async save(key: string, bytes: Uint8Array): Promise<void> {
    await this.producer.send({ topic: this.topic, messages: [{ key, value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }], acks: -1 });
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
