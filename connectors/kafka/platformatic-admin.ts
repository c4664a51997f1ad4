import { Admin, type BaseOptions } from '@platformatic/kafka';
import type { AdminPort } from './kafka-port.js';
import { platformaticFailure } from './platformatic-failure.js';

/** Kafka error code TOPIC_ALREADY_EXISTS. */
const TOPIC_ALREADY_EXISTS = 36;

/** {@link AdminPort} on a `@platformatic/kafka` admin client, answering in kafkajs's shapes (offsets as decimal strings, -1 for no commit). */
export class PlatformaticAdmin implements AdminPort {
  private readonly client: Admin;

  constructor(options: BaseOptions) {
    this.client = new Admin(options);
  }

  async connect(): Promise<void> {
    await this.client.metadata({ topics: [] }).catch((error: unknown) => { throw platformaticFailure(error); });
  }

  async disconnect(): Promise<void> {
    await this.client.close();
  }

  listTopics(): Promise<string[]> {
    return this.client.listTopics();
  }

  async describeCluster(): Promise<{ brokers: { nodeId: number; host: string; port: number }[] }> {
    const metadata = await this.client.metadata({ topics: [], forceUpdate: true });
    return { brokers: [...metadata.brokers].map(([nodeId, { host, port }]) => ({ nodeId, host, port })) };
  }

  /** Creates the topics (one request per distinct layout); resolves false when they all existed already, as kafkajs does. */
  async createTopics(options: {
    topics: { topic: string; numPartitions?: number; replicationFactor?: number; configEntries?: { name: string; value: string }[] }[];
    waitForLeaders?: boolean;
  }): Promise<boolean> {
    let created = false;
    for (const { topic, numPartitions, replicationFactor, configEntries } of options.topics) {
      try {
        await this.client.createTopics({ topics: [topic], partitions: numPartitions ?? -1, replicas: replicationFactor ?? -1, configs: configEntries?.map(({ name, value }) => ({ name, value })) });
        created = true;
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
    }
    if (created && (options.waitForLeaders ?? true)) await this.waitForLeaders(options.topics.map(({ topic }) => topic));
    return created;
  }

  async fetchTopicOffsets(topic: string): Promise<{ partition: number; offset: string; high: string; low: string }[]> {
    const partitions = (await this.client.metadata({ topics: [topic], forceUpdate: true })).topics.get(topic)?.partitionsCount ?? 0;
    const indexes = Array.from({ length: partitions }, (_, p) => p);
    const [latest, earliest] = await Promise.all([-1n, -2n].map((timestamp) => this.client.listOffsets({ topics: [{ name: topic, partitions: indexes.map((partitionIndex) => ({ partitionIndex, timestamp })) }] })));
    const low = new Map(earliest[0].partitions.map((p) => [p.partitionIndex, p.offset]));
    return latest[0].partitions
      .map(({ partitionIndex, offset }) => ({ partition: partitionIndex, offset: offset.toString(), high: offset.toString(), low: String(low.get(partitionIndex) ?? 0n) }))
      .sort((a, b) => a.partition - b.partition);
  }

  async fetchOffsets(options: { groupId: string; topics: string[] }): Promise<{ topic: string; partitions: { partition: number; offset: string }[] }[]> {
    const metadata = await this.client.metadata({ topics: options.topics });
    const topics = options.topics.map((name) => ({ name, partitionIndexes: Array.from({ length: metadata.topics.get(name)?.partitionsCount ?? 0 }, (_, p) => p) }));
    const [group] = await this.client.listConsumerGroupOffsets({ groups: [{ groupId: options.groupId, topics }] });
    return options.topics.map((topic) => ({
      topic,
      partitions: (group?.topics.find((t) => t.name === topic)?.partitions ?? [])
        .map(({ partitionIndex, committedOffset }) => ({ partition: partitionIndex, offset: committedOffset.toString() }))
        .sort((a, b) => a.partition - b.partition),
    }));
  }

  private async waitForLeaders(topics: string[]): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const metadata = await this.client.metadata({ topics, forceUpdate: true }).catch(() => undefined);
      if (metadata !== undefined && topics.every((topic) => metadata.topics.get(topic)?.partitions.every((p) => p.leader >= 0))) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function isAlreadyExists(error: unknown): boolean {
  const found = (error as { findBy?: (key: string, value: unknown) => unknown }).findBy?.('apiCode', TOPIC_ALREADY_EXISTS);
  return found !== undefined && found !== null;
}
