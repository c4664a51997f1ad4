import type { ConsumerPort, KafkaPort, PortEachBatchPayload, PortMessage, PortOutgoingMessage, ProducerPort } from '../../../connectors/kafka/kafka-port.js';
import type { SnapshotStore } from '../../../connectors/kafka/snapshot-store.js';

/**
 * A scripted in-memory {@link KafkaPort} for unit tests of the connectors' logic: topics are
 * arrays of records per partition; the test drives the consumer (`join`, `deliver`) and inspects
 * seeks, resolved and committed offsets. It is not a broker simulation.
 */
export class InMemoryKafka implements KafkaPort {
  readonly topics = new Map<string, { key: Buffer | null; value: Buffer | null; headers: { [k: string]: string } }[][]>();
  readonly committed = new Map<number, string>();
  readonly seeks: { partition: number; offset: string }[] = [];
  readonly resolved = new Map<number, string>();
  private eachBatch: ((payload: PortEachBatchPayload) => Promise<void>) | undefined;
  private joinListener: ((event: { payload: { memberAssignment: { [topic: string]: number[] } } }) => void) | undefined;

  createTopic(topic: string, partitions: number): void {
    this.topics.set(topic, Array.from({ length: partitions }, () => []));
  }

  append(topic: string, partition: number, value: string | null, key: string | null = null): void {
    (this.topics.get(topic) as { key: Buffer | null; value: Buffer | null; headers: { [k: string]: string } }[][])[partition].push({ key: key === null ? null : Buffer.from(key), value: value === null ? null : Buffer.from(value), headers: {} });
  }

  /** Emits a group join with this assignment. */
  join(topic: string, partitions: number[]): void {
    this.joinListener?.({ payload: { memberAssignment: { [topic]: partitions } } });
  }

  /** Hands records [from, to) of a partition to the consumer as one batch. */
  async deliver(topic: string, partition: number, from: number, to?: number): Promise<void> {
    const log = (this.topics.get(topic) as { key: Buffer | null; value: Buffer | null }[][])[partition];
    const end = to ?? log.length;
    const messages: PortMessage[] = log.slice(from, end).map((r, k) => ({ key: r.key, value: r.value, offset: String(from + k), timestamp: '0' }));
    await (this.eachBatch as (payload: PortEachBatchPayload) => Promise<void>)({
      batch: { topic, partition, highWatermark: String(log.length), messages, lastOffset: () => String(end - 1) },
      resolveOffset: (offset) => { this.resolved.set(partition, offset); },
      heartbeat: async () => undefined,
      isRunning: () => true,
      isStale: () => false,
    });
  }

  producer(): ProducerPort {
    return {
      connect: async () => undefined,
      disconnect: async () => undefined,
      send: async ({ topic, messages }: { topic: string; messages: PortOutgoingMessage[] }) => {
        if (!this.topics.has(topic)) this.createTopic(topic, 1);
        for (const m of messages) {
          const headers = Object.fromEntries(Object.entries(m.headers ?? {}).map(([k, v]) => [k, String(v)]));
          (this.topics.get(topic) as { key: Buffer | null; value: Buffer | null; headers: { [k: string]: string } }[][])[m.partition ?? 0].push({ key: m.key == null ? null : Buffer.from(m.key), value: m.value === null ? null : Buffer.from(m.value), headers });
        }
      },
    };
  }

  consumer(): ConsumerPort {
    const on = ((event: string, listener: never) => {
      if (event === 'consumer.group_join') this.joinListener = listener;
      return () => undefined;
    }) as ConsumerPort['on'];
    return {
      connect: async () => undefined,
      disconnect: async () => undefined,
      subscribe: async () => undefined,
      run: async ({ eachBatch }) => { this.eachBatch = eachBatch; },
      stop: async () => undefined,
      seek: ({ partition, offset }) => { this.seeks.push({ partition, offset }); },
      pause: () => undefined,
      resume: () => undefined,
      commitOffsets: async (offsets) => { for (const o of offsets) this.committed.set(o.partition, o.offset); },
      on,
    };
  }

  admin(): ReturnType<KafkaPort['admin']> {
    return {
      connect: async () => undefined,
      disconnect: async () => undefined,
      listTopics: async () => [...this.topics.keys()],
      describeCluster: async () => ({ brokers: [{ nodeId: 1, host: 'memory', port: 0 }] }),
      createTopics: async ({ topics }) => { for (const t of topics) this.createTopic(t.topic, t.numPartitions ?? 1); return true; },
      fetchTopicOffsets: async (topic) => (this.topics.get(topic) ?? []).map((log, partition) => ({ partition, offset: String(log.length), high: String(log.length), low: '0' })),
      fetchOffsets: async ({ topics }) => topics.map((topic) => ({ topic, partitions: (this.topics.get(topic) ?? []).map((_, partition) => ({ partition, offset: this.committed.get(partition) ?? '-1' })) })),
    };
  }
}

/** A {@link SnapshotStore} in a Map, recording every save. */
export class InMemorySnapshotStore implements SnapshotStore {
  readonly saved: { key: string; bytes: Uint8Array }[] = [];
  async save(key: string, bytes: Uint8Array): Promise<void> {
    this.saved.push({ key, bytes });
  }
  async latest(key: string): Promise<Uint8Array | undefined> {
    return this.saved.filter((s) => s.key === key).at(-1)?.bytes;
  }
}
