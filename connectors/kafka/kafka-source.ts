import type { ConsumerPort, KafkaPort, PortMessage } from './kafka-port.js';

/** One partition's fetched records, handed to the source's handler. */
export interface SourceBatch {
  readonly topic: string;
  readonly partition: number;
  /** Increases at every group (re)join; a partition's state from an older generation is stale. */
  readonly generation: number;
  readonly messages: readonly PortMessage[];
  /** The partition's end offset when the batch was fetched. */
  readonly highWatermark: number;
  /** Marks records up to `offset` as processed, so the next fetch starts after it (no commit). */
  resolve(offset: string): void;
  /** Sends a group heartbeat if one is due; call it between chunks of a long batch. */
  heartbeat(): Promise<void>;
  /** False once the consumer stops, the partition is sought elsewhere, or it is paused: stop there. */
  active(): boolean;
}

/** Options of {@link KafkaSource}. */
export interface KafkaSourceOptions {
  readonly topic: string;
  readonly groupId: string;
  /** Where a partition with no committed offset starts; default the beginning. */
  readonly fromBeginning?: boolean;
  readonly sessionTimeoutMs?: number;
  readonly heartbeatIntervalMs?: number;
  /**
   * Most bytes one Fetch returns per partition; default 256 KiB (p99 event-loop delay 43–54 ms against 61–66 ms at 1 MiB, and more records/s, in `bench/kafka.bench.ts`).
   * A Fetch response is parsed in one synchronous step on the event loop (with `@platformatic/kafka`
   * four partitions of 1 MiB took 50–80 ms), so smaller fetches keep the loop responsive; the next
   * fetch is already under way while a round is handled, so throughput does not drop. A partition
   * whose record batches are larger than this (a librdkafka producer writes batches of up to 1 MiB)
   * gets a fetch size that fits them, so every assigned partition still learns in every round.
   */
  readonly maxBytesPerPartition?: number;
}

/**
 * A Kafka consumer-group source: `eachBatch` delivery, one partition at a time in offset order, no
 * automatic offset resolution or commits (the caller resolves what it applied and commits what is
 * durable). `pause` / `resume` act per partition and are the seam for a backpressure controller.
 * Assignment changes bump {@link generation} and are reported to `onAssignment` listeners.
 */
export class KafkaSource {
  /** The current group generation, as counted by this source (0 before the first join). */
  generation = 0;
  /** The partitions assigned at the current generation. */
  assigned: readonly number[] = [];
  private readonly consumer: ConsumerPort;
  private readonly paused = new Set<number>();
  private readonly listeners: ((partitions: readonly number[], generation: number) => void)[] = [];
  private crashed: ((error: Error) => void) | undefined;
  private readonly restartListeners: ((error: Error) => void)[] = [];

  constructor(port: KafkaPort, readonly options: KafkaSourceOptions) {
    this.consumer = port.consumer({
      groupId: options.groupId,
      sessionTimeout: options.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: options.heartbeatIntervalMs ?? 3_000,
      maxBytesPerPartition: options.maxBytesPerPartition ?? 262_144,
      maxWaitTimeInMs: 100,
    });
    this.consumer.on('consumer.group_join', ({ payload }) => {
      this.generation++;
      this.assigned = [...(payload.memberAssignment[options.topic] ?? [])].sort((a, b) => a - b);
      for (const listener of this.listeners) listener(this.assigned, this.generation);
    });
    this.consumer.on('consumer.crash', ({ payload }) => {
      if (!payload.restart) this.crashed?.(payload.error);
      else for (const listener of this.restartListeners) listener(payload.error);
    });
  }

  /** Calls `listener(partitions, generation)` after every group join. */
  onAssignment(listener: (partitions: readonly number[], generation: number) => void): void {
    this.listeners.push(listener);
  }

  /** Calls `listener(error)` whenever the consumer crashes with a retriable error and restarts (e.g. the brokers are down). */
  onRestart(listener: (error: Error) => void): void {
    this.restartListeners.push(listener);
  }

  /**
   * Joins the group and starts delivering batches to `handler` (one at a time). Resolves once
   * running; `onFatal` is called if the consumer crashes for good.
   */
  async start(handler: (batch: SourceBatch) => Promise<void>, onFatal: (error: Error) => void): Promise<void> {
    this.crashed = onFatal;
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [this.options.topic], fromBeginning: this.options.fromBeginning ?? true });
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 1,
      eachBatch: async (payload) => {
        const { batch } = payload;
        if (batch.messages.length === 0) return;
        await handler({
          topic: batch.topic,
          partition: batch.partition,
          generation: this.generation,
          messages: batch.messages,
          highWatermark: Number(batch.highWatermark),
          resolve: (offset) => payload.resolveOffset(offset),
          heartbeat: () => payload.heartbeat(),
          active: () => payload.isRunning() && !payload.isStale() && !this.paused.has(batch.partition),
        });
      },
    });
  }

  /** Stops fetching from these partitions (records already handed out are finished by the handler's `active` check). */
  pause(partitions: readonly number[]): void {
    for (const p of partitions) this.paused.add(p);
    this.consumer.pause([{ topic: this.options.topic, partitions: [...partitions] }]);
  }

  /** Resumes fetching from these partitions. */
  resume(partitions: readonly number[]): void {
    for (const p of partitions) this.paused.delete(p);
    this.consumer.resume([{ topic: this.options.topic, partitions: [...partitions] }]);
  }

  /** Whether a partition is paused by {@link pause}. */
  isPaused(partition: number): boolean {
    return this.paused.has(partition);
  }

  /** Makes the next fetch of `partition` start at `offset`. */
  seek(partition: number, offset: number): void {
    this.consumer.seek({ topic: this.options.topic, partition, offset: String(offset) });
  }

  /** Commits `nextOffset` (the offset of the next record to read) for `partition`. */
  commit(partition: number, nextOffset: number): Promise<void> {
    return this.consumer.commitOffsets([{ topic: this.options.topic, partition, offset: String(nextOffset) }]);
  }

  /** Stops consuming and leaves the group. */
  async stop(): Promise<void> {
    await this.consumer.stop();
    await this.consumer.disconnect();
  }
}
