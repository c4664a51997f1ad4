import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import type { AdminPort, ConsumerPort, KafkaPort, PortEachBatchPayload } from '../../connectors/kafka/kafka-port.js';
import { unique, waitFor } from './helpers.js';

/**
 * `@platformatic/kafka` rejoins the group on its own heartbeat timer, while a batch is in flight;
 * kafkajs rejoins only between batches. The adapter keeps kafkajs's order: the new assignment is
 * announced once the batch in flight has returned, and a commit made meanwhile carries the old
 * generation, so the broker refuses it (never retried under the new one, for a partition that may
 * have moved). The scenario cannot run on kafkajs (the second member's join waits for this batch).
 */
describe('platformatic consumer: a member joins while a batch is in flight (real broker)', () => {
  let port: KafkaPort;
  let admin: AdminPort;
  beforeAll(async () => {
    port = createKafkaPort({ brokers: [inject('kafkaBootstrap')], clientId: 'rebalance-platformatic', client: 'platformatic' });
    admin = port.admin();
    await admin.connect();
  });
  afterAll(() => admin.disconnect());

  async function member(topic: string, groupId: string, eachBatch: (payload: PortEachBatchPayload) => Promise<void>): Promise<{ consumer: ConsumerPort; joined: number[][] }> {
    const consumer = port.consumer({ groupId, maxWaitTimeInMs: 100, sessionTimeout: 10_000, heartbeatInterval: 500 });
    const joined: number[][] = [];
    consumer.on('consumer.group_join', ({ payload }) => { joined.push(payload.memberAssignment[topic] ?? []); });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch });
    return { consumer, joined };
  }

  it('announces the new assignment after the batch returns; a commit from the batch is refused, not made under the new generation', async () => {
    const topic = unique('rebalance');
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 2, replicationFactor: 1 }], waitForLeaders: true })).toBe(true);
    const producer = port.producer();
    await producer.connect();
    for (const partition of [0, 1]) await producer.send({ topic, acks: -1, messages: Array.from({ length: 10 }, (_, i) => ({ partition, value: `v${i}` })) });
    await producer.disconnect();
    const groupId = unique('rebalance-group');
    let second: { consumer: ConsumerPort; joined: number[][] } | undefined;
    let inBatch: { partition: number; announcedDuring: number; commit: string } | undefined;
    let first: { consumer: ConsumerPort; joined: number[][] } | undefined;
    first = await member(topic, groupId, async ({ batch, isStale }) => {
      if (inBatch !== undefined) return;
      await waitFor(() => first !== undefined, 'the first member to start');
      const self = first as { consumer: ConsumerPort; joined: number[][] };
      second = await member(topic, groupId, async () => undefined);
      await waitFor(() => (second?.joined.at(-1)?.length ?? 0) > 0, 'the second member to get partitions');
      await waitFor(isStale, 'the first member\'s client to rejoin (the batch turns stale)');
      const announcedDuring = self.joined.length;
      const commit = await self.consumer.commitOffsets([{ topic, partition: batch.partition, offset: '5' }]).then(() => 'made', () => 'refused');
      inBatch = { partition: batch.partition, announcedDuring, commit };
    });
    const started = first;
    await waitFor(() => inBatch !== undefined && started.joined.length >= 2, 'the first member to announce its second assignment');
    expect(inBatch?.announcedDuring).toBe(1);
    expect(inBatch?.commit).toBe('refused');
    const committed = (await admin.fetchOffsets({ groupId, topics: [topic] }))[0].partitions.find((p) => p.partition === inBatch?.partition);
    expect(committed?.offset).not.toBe('5');
    expect([...(started.joined.at(-1) ?? []), ...(second?.joined.at(-1) ?? [])].sort()).toEqual([0, 1]);
    await Promise.all([started.consumer, second?.consumer].map(async (c) => { await c?.stop(); await c?.disconnect(); }));
  });
});
