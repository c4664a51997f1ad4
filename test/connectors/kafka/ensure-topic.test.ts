import { describe, expect, it } from 'vitest';
import { ensureTopic } from '../../../connectors/kafka/ensure-topic.js';
import type { AdminPort } from '../../../connectors/kafka/kafka-port.js';
import { ConfigError } from '../../../src/core/config-error.js';

function admin(brokers: number): { port: AdminPort; created: Parameters<AdminPort['createTopics']>[0]['topics'] } {
  const created: Parameters<AdminPort['createTopics']>[0]['topics'] = [];
  const port = {
    connect: async () => undefined, disconnect: async () => undefined,
    listTopics: async () => created.map((t) => t.topic),
    describeCluster: async () => ({ brokers: Array.from({ length: brokers }, (_, i) => ({ nodeId: i, host: 'h', port: 9092 + i })) }),
    createTopics: async ({ topics }: Parameters<AdminPort['createTopics']>[0]) => { created.push(...topics); return true; },
    fetchTopicOffsets: async () => [], fetchOffsets: async () => [],
  } as AdminPort;
  return { port, created };
}

describe('ensureTopic durability (issue 14, item 7)', () => {
  it('replicates to min(3, brokers) with min.insync.replicas one less by default', async () => {
    for (const [brokers, rf, isr] of [[1, 1, '1'], [2, 2, '1'], [3, 3, '2'], [5, 3, '2']] as const) {
      const { port, created } = admin(brokers);
      await ensureTopic(port, 't.dlq', { partitions: 4, config: { 'cleanup.policy': 'delete' } });
      expect(created[0]).toMatchObject({ topic: 't.dlq', numPartitions: 4, replicationFactor: rf });
      expect(created[0].configEntries).toEqual(expect.arrayContaining([{ name: 'min.insync.replicas', value: isr }, { name: 'cleanup.policy', value: 'delete' }]));
    }
  });

  it('honours an explicit replication and refuses one the cluster cannot hold', async () => {
    const { port, created } = admin(3);
    await ensureTopic(port, 'a', { replicationFactor: 2, minInsyncReplicas: 2 });
    expect(created[0]).toMatchObject({ replicationFactor: 2, configEntries: expect.arrayContaining([{ name: 'min.insync.replicas', value: '2' }]) });
    await expect(ensureTopic(port, 'b', { replicationFactor: 4 })).rejects.toBeInstanceOf(ConfigError);
    await expect(ensureTopic(port, 'c', { replicationFactor: 2, minInsyncReplicas: 3 })).rejects.toBeInstanceOf(ConfigError);
  });
});
