/**
 * The small slice of the KafkaJS API that the connectors use, as structural types: a kafkajs
 * `Kafka` instance satisfies it (`createKafkajsPort` wraps its producers to slice large sends), and so does the KafkaJS-compatible API
 * of `@confluentinc/kafka-javascript`. Unit tests can implement it in memory.
 */
export interface KafkaPort {
  producer(config?: { idempotent?: boolean; maxInFlightRequests?: number; allowAutoTopicCreation?: boolean }): ProducerPort;
  consumer(config: {
    groupId: string;
    sessionTimeout?: number;
    heartbeatInterval?: number;
    maxBytesPerPartition?: number;
    maxWaitTimeInMs?: number;
    allowAutoTopicCreation?: boolean;
  }): ConsumerPort;
  admin(): AdminPort;
}

/** A header value as Kafka carries it. */
export type PortHeaders = { [key: string]: Buffer | string | (Buffer | string)[] | undefined };

/** One record to produce. */
export interface PortOutgoingMessage {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  partition?: number;
  headers?: PortHeaders;
}

/**
 * One consumed record (offsets are decimal strings, as in KafkaJS). With the `platformatic` client the
 * offset, timestamp and headers are accessors made when read: copy a message field by field (a spread
 * `{ ...message }` keeps only the key and the value); `JSON.stringify` writes every field.
 */
export interface PortMessage {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly offset: string;
  readonly timestamp: string;
  readonly headers?: PortHeaders;
}

/** A fetched batch of one partition. */
export interface PortBatch {
  readonly topic: string;
  readonly partition: number;
  readonly highWatermark: string;
  readonly messages: PortMessage[];
  /** The batch's last offset, counting records the client filtered out (control records). */
  lastOffset(): string;
}

/** What `eachBatch` receives (KafkaJS `EachBatchPayload`, the parts used here). */
export interface PortEachBatchPayload {
  readonly batch: PortBatch;
  resolveOffset(offset: string): void;
  heartbeat(): Promise<void>;
  isRunning(): boolean;
  isStale(): boolean;
}

export interface ProducerPort {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  send(record: { topic: string; messages: PortOutgoingMessage[]; acks?: number; timeout?: number }): Promise<unknown>;
}

export interface ConsumerPort {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  subscribe(subscription: { topics: string[]; fromBeginning?: boolean }): Promise<void>;
  run(config: {
    eachBatch: (payload: PortEachBatchPayload) => Promise<void>;
    eachBatchAutoResolve?: boolean;
    autoCommit?: boolean;
    partitionsConsumedConcurrently?: number;
  }): Promise<void>;
  stop(): Promise<void>;
  seek(target: { topic: string; partition: number; offset: string }): void;
  pause(targets: { topic: string; partitions?: number[] }[]): void;
  resume(targets: { topic: string; partitions?: number[] }[]): void;
  commitOffsets(offsets: { topic: string; partition: number; offset: string }[]): Promise<void>;
  /** Subscribes to a consumer event; `group.join` carries `payload.memberAssignment` (topic → partitions). */
  on(event: 'consumer.group_join', listener: (event: { payload: { memberAssignment: { [topic: string]: number[] } } }) => void): () => void;
  on(event: 'consumer.crash', listener: (event: { payload: { error: Error; restart: boolean } }) => void): () => void;
}

export interface AdminPort {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  listTopics(): Promise<string[]>;
  /** The cluster's brokers (to choose a replication factor). */
  describeCluster(): Promise<{ brokers: { nodeId: number; host: string; port: number }[] }>;
  createTopics(options: {
    topics: { topic: string; numPartitions?: number; replicationFactor?: number; configEntries?: { name: string; value: string }[] }[];
    waitForLeaders?: boolean;
  }): Promise<boolean>;
  fetchTopicOffsets(topic: string): Promise<{ partition: number; offset: string; high: string; low: string }[]>;
  fetchOffsets(options: { groupId: string; topics: string[] }): Promise<{ topic: string; partitions: { partition: number; offset: string }[] }[]>;
}
