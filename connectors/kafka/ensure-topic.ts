import { ConfigError } from '../../src/core/config-error.js';
import type { AdminPort } from './kafka-port.js';
import type { TopicDurability } from './topic-durability.js';

/** Options of {@link ensureTopic}. */
export interface EnsureTopicOptions extends TopicDurability {
  readonly partitions?: number;
  /** Topic configs, e.g. `cleanup.policy=compact`. */
  readonly config?: { readonly [name: string]: string };
}

/**
 * Creates `topic` if it does not exist, with `partitions` partitions (default 1), the given topic
 * configs and the durability of {@link TopicDurability} (by default min(3, brokers) replicas and
 * `min.insync.replicas` one less, at least 1), and waits for its leaders. An existing topic is left
 * as it is; if creation reports an error, it is an error only if the topic is still not listed
 * after 5 s. A replication factor above the number of brokers is refused with a `ConfigError`.
 */
export async function ensureTopic(admin: AdminPort, topic: string, options: EnsureTopicOptions = {}): Promise<void> {
  if ((await admin.listTopics()).includes(topic)) return;
  const brokers = (await admin.describeCluster()).brokers.length;
  const replicationFactor = options.replicationFactor ?? Math.max(1, Math.min(3, brokers));
  if (!Number.isInteger(replicationFactor) || replicationFactor < 1 || replicationFactor > brokers) {
    throw new ConfigError(`replication factor must be an integer from 1 to the ${brokers} broker(s) of the cluster`, { field: 'replicationFactor', value: replicationFactor, source: topic });
  }
  const minInsyncReplicas = options.minInsyncReplicas ?? Math.max(1, replicationFactor - 1);
  if (!Number.isInteger(minInsyncReplicas) || minInsyncReplicas < 1 || minInsyncReplicas > replicationFactor) {
    throw new ConfigError(`min.insync.replicas must be an integer from 1 to the replication factor ${replicationFactor}`, { field: 'minInsyncReplicas', value: minInsyncReplicas, source: topic });
  }
  const config = { 'min.insync.replicas': String(minInsyncReplicas), ...options.config };
  const configEntries = Object.entries(config).map(([name, value]) => ({ name, value }));
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: options.partitions ?? 1, replicationFactor, configEntries }], waitForLeaders: true });
  } catch (error) {
    // Another process may have created it between the listing and the request, or the broker's
    // metadata lags the controller's (KRaft) for a moment after creation.
    for (let attempt = 0; attempt < 20; attempt++) {
      if ((await admin.listTopics()).includes(topic)) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw error;
  }
}
