import type { AdminPort } from './kafka-port.js';

/**
 * Creates `topic` if it does not exist (with `partitions` partitions, replication 1 and the given
 * topic configs, e.g. `cleanup.policy=compact`) and waits for its leaders. An existing topic is
 * left as it is; if creation reports an error, it is an error only if the topic is still not listed
 * after 5 s.
 */
export async function ensureTopic(admin: AdminPort, topic: string, options: { partitions?: number; config?: { [name: string]: string } } = {}): Promise<void> {
  if ((await admin.listTopics()).includes(topic)) return;
  const configEntries = Object.entries(options.config ?? {}).map(([name, value]) => ({ name, value }));
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: options.partitions ?? 1, replicationFactor: 1, configEntries }], waitForLeaders: true });
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
