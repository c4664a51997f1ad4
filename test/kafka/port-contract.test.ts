import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import { defaultPartition } from '../../connectors/kafka/default-partition.js';
import type { AdminPort, ConsumerPort, KafkaPort, PortEachBatchPayload, PortMessage } from '../../connectors/kafka/kafka-port.js';
import { unique, waitFor } from './helpers.js';

type Client = 'kafkajs' | 'platformatic';

/** A consumer of `topic` that records every batch (autoCommit off, manual resolution unless `autoResolve`). */
async function consume(port: KafkaPort, topic: string, groupId: string, handle: (payload: PortEachBatchPayload) => Promise<void> = async ({ batch, resolveOffset }) => {
  for (const m of batch.messages) resolveOffset(m.offset);
}): Promise<{ consumer: ConsumerPort; batches: { partition: number; messages: PortMessage[]; highWatermark: string; lastOffset: string }[]; joined: { [topic: string]: number[] }[] }> {
  const consumer = port.consumer({ groupId, maxWaitTimeInMs: 100, sessionTimeout: 10_000, heartbeatInterval: 1_000 });
  const batches: { partition: number; messages: PortMessage[]; highWatermark: string; lastOffset: string }[] = [];
  const joined: { [topic: string]: number[] }[] = [];
  consumer.on('consumer.group_join', ({ payload }) => { joined.push(payload.memberAssignment); });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    autoCommit: false, eachBatchAutoResolve: false, partitionsConsumedConcurrently: 1,
    eachBatch: async (payload) => {
      const { batch } = payload;
      batches.push({ partition: batch.partition, messages: [...batch.messages], highWatermark: batch.highWatermark, lastOffset: batch.lastOffset() });
      await handle(payload);
    },
  });
  return { consumer, batches, joined };
}

async function close(consumer: ConsumerPort): Promise<void> {
  await consumer.stop();
  await consumer.disconnect();
}

function offsetsOf(batches: { partition: number; messages: PortMessage[] }[], partition: number): number[] {
  return batches.filter((b) => b.partition === partition).flatMap((b) => b.messages.map((m) => Number(m.offset)));
}

describe.each<Client>(['kafkajs', 'platformatic'])('KafkaPort contract on the real broker: %s', (client) => {
  let port: KafkaPort;
  let admin: AdminPort;
  beforeAll(async () => {
    port = createKafkaPort({ brokers: [inject('kafkaBootstrap')], clientId: `contract-${client}`, logLevel: 'nothing', client });
    admin = port.admin();
    await admin.connect();
  });
  afterAll(() => admin.disconnect());

  async function topicWith(partitions: number, perPartition: number): Promise<string> {
    const topic = unique(`contract-${client}`);
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor: 1 }], waitForLeaders: true })).toBe(true);
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    for (let p = 0; p < partitions; p++) {
      await producer.send({ topic, acks: -1, messages: Array.from({ length: perPartition }, (_, i) => ({ partition: p, value: `p${p}-${i}` })) });
    }
    await producer.disconnect();
    return topic;
  }

  it('admin: creates, lists and describes topics; ends and committed offsets in kafkajs shapes', async () => {
    const topic = await topicWith(3, 5);
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 3, replicationFactor: 1 }], waitForLeaders: true })).toBe(false);
    expect(await admin.listTopics()).toContain(topic);
    const cluster = await admin.describeCluster();
    expect(cluster.brokers.length).toBe(1);
    expect(cluster.brokers[0].port).toBeGreaterThan(0);
    expect((await admin.fetchTopicOffsets(topic)).sort((a, b) => a.partition - b.partition)).toEqual([0, 1, 2].map((partition) => ({ partition, offset: '5', high: '5', low: '0' })));
    const group = unique('contract-group');
    const { consumer, joined } = await consume(port, topic, group);
    await waitFor(() => joined.length > 0, 'the group join'); // kafkajs's run() resolves before it has joined; a commit then races the join
    await consumer.commitOffsets([{ topic, partition: 1, offset: '3' }]);
    await close(consumer);
    const committed = (await admin.fetchOffsets({ groupId: group, topics: [topic] })).map((t) => ({ topic: t.topic, partitions: t.partitions.map(({ partition, offset }) => ({ partition, offset })) }));
    expect(committed).toEqual([{ topic, partitions: [{ partition: 0, offset: '-1' }, { partition: 1, offset: '3' }, { partition: 2, offset: '-1' }] }]);
  });

  it('round trip: keys, headers (a repeated name), null values; a key lands on the default partition, in order per key', async () => {
    const topic = unique(`contract-${client}`);
    await admin.createTopics({ topics: [{ topic, numPartitions: 4, replicationFactor: 1 }], waitForLeaders: true });
    // Idempotent, as every producer vbstream makes: a plain producer's retry under load may write a batch twice (seen: 400 of 300).
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const keys = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
    const sent = Array.from({ length: 300 }, (_, i) => ({ key: keys[i % keys.length], value: i === 7 ? null : `v${i}`, headers: { seq: String(i), tag: ['a', Buffer.from('b')] } }));
    await producer.send({ topic, acks: -1, messages: sent.slice(0, 150) });
    await producer.send({ topic, acks: -1, messages: sent.slice(150) });
    await producer.disconnect();
    const { consumer, batches } = await consume(port, topic, unique('contract-group'));
    await waitFor(() => batches.reduce((n, b) => n + b.messages.length, 0) >= sent.length, 'every record back');
    await close(consumer);
    // Nothing is committed, so a rejoin of the group would deliver records again (at least once): each is counted once.
    const delivered = batches.flatMap((b) => b.messages.map((m) => ({ partition: b.partition, m })));
    const received = delivered.filter(({ partition, m }, k) => delivered.findIndex((d) => d.partition === partition && d.m.offset === m.offset) === k);
    expect(received).toHaveLength(sent.length);
    for (const { partition, m } of received) {
      const i = Number((m.headers?.seq as Buffer).toString());
      expect(m.key?.toString()).toBe(sent[i].key);
      expect(partition).toBe(defaultPartition(sent[i].key, 4));
      expect(m.value === null ? null : m.value.toString()).toBe(sent[i].value);
      expect((m.headers?.tag as Buffer[]).map(String)).toEqual(['a', 'b']);
      expect(Number(m.timestamp)).toBeGreaterThan(0);
    }
    for (const key of keys) {
      const order = received.filter(({ m }) => m.key?.toString() === key).map(({ m }) => Number((m.headers?.seq as Buffer).toString()));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
  });

  it.each([{ idempotent: false }, { idempotent: true, maxInFlightRequests: 1 }])('one send of 3,000 keyed records (%o): every record once, in send order per partition', async (config) => {
    const topic = unique(`contract-${client}`);
    await admin.createTopics({ topics: [{ topic, numPartitions: 3, replicationFactor: 1 }], waitForLeaders: true });
    const producer = port.producer(config);
    await producer.connect();
    const sent = Array.from({ length: 3_000 }, (_, i) => ({ key: `k${i % 7}`, value: String(i) }));
    await producer.send({ topic, acks: -1, messages: sent });
    await producer.disconnect();
    expect((await admin.fetchTopicOffsets(topic)).reduce((n, { high }) => n + Number(high), 0)).toBe(sent.length);
    const { consumer, batches } = await consume(port, topic, unique('contract-group'));
    await waitFor(() => batches.reduce((n, b) => n + b.messages.length, 0) >= sent.length, 'every record back');
    await close(consumer);
    for (let p = 0; p < 3; p++) {
      const byOffset = new Map(batches.filter((b) => b.partition === p).flatMap((b) => b.messages.map((m) => [Number(m.offset), Number(m.value?.toString())] as const))); // a rejoin may deliver a record again
      const values = [...byOffset].sort(([a], [b]) => a - b).map(([, value]) => value);
      expect(values).toEqual(sent.map((m, i) => (defaultPartition(m.key, 3) === p ? i : -1)).filter((i) => i >= 0));
    }
  });

  it('one send of 3 MB to one partition (three times the broker\'s default message.max.bytes) is written whole, in order', async () => {
    const topic = unique(`contract-${client}`);
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }], waitForLeaders: true });
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const pad = 'x'.repeat(1_500);
    const sent = Array.from({ length: 2_000 }, (_, i) => ({ value: `${i} ${pad}` }));
    await producer.send({ topic, acks: -1, messages: sent });
    await producer.disconnect();
    const { consumer, batches } = await consume(port, topic, unique('contract-group'));
    await waitFor(() => batches.reduce((n, b) => n + b.messages.length, 0) >= sent.length, 'every record back');
    await close(consumer);
    const byOffset = new Map(batches.flatMap((b) => b.messages.map((m) => [Number(m.offset), m.value?.toString().split(' ')[0]] as const)));
    expect([...byOffset].sort(([a], [b]) => a - b).map(([, i]) => Number(i))).toEqual(sent.map((_, i) => i));
  });

  it('record batches larger than the fetch size per partition: every partition makes progress together', async () => {
    const partitions = 4;
    const topic = unique(`contract-${client}`);
    await admin.createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor: 1 }], waitForLeaders: true });
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const pad = 'x'.repeat(1_000);
    for (let send = 0; send < 6; send++) { // one record batch of ~500 KB per partition and send, 8× the consumer's fetch size below
      await producer.send({ topic, acks: -1, messages: Array.from({ length: 4 * 500 }, (_, i) => ({ partition: i % partitions, value: `${send} ${pad}` })) });
    }
    await producer.disconnect();
    const consumer = port.consumer({ groupId: unique('contract-group'), maxWaitTimeInMs: 100, maxBytesPerPartition: 65_536 });
    const order: { partition: number; before: number }[] = [];
    let records = 0;
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false, eachBatchAutoResolve: true, partitionsConsumedConcurrently: 1,
      eachBatch: async ({ batch }) => {
        order.push({ partition: batch.partition, before: records });
        records += batch.messages.length;
      },
    });
    await waitFor(() => records >= 6 * 4 * 500, 'every record');
    await close(consumer);
    // Records delivered before each partition's first batch: a partition left waiting until others are drained would see most of the topic go first.
    const before = Array.from({ length: partitions }, (_, p) => order.find((b) => b.partition === p)?.before ?? records);
    expect(Math.max(...before), `records before each partition's first batch: ${before.join(', ')}`).toBeLessThan(records / 4);
  });

  it('eachBatch: batches of one partition with its end offset; unresolved records are fetched again', async () => {
    const topic = await topicWith(2, 50);
    let refused = false;
    const { consumer, batches, joined } = await consume(port, topic, unique('contract-group'), async ({ batch, resolveOffset }) => {
      if (!refused && batch.partition === 0) {
        refused = true; // resolve only the first 10 records: the rest come again
        for (const m of batch.messages.slice(0, 10)) resolveOffset(m.offset);
        return;
      }
      for (const m of batch.messages) resolveOffset(m.offset);
    });
    // The first batch of partition 0 may hold all 50 records: wait for the unresolved 40 to come again, not only for every offset once.
    const refetched = (): Set<number> => new Set(batches.filter((b) => b.partition === 0).slice(1).flatMap((b) => b.messages.map((m) => Number(m.offset))));
    await waitFor(() => new Set(offsetsOf(batches, 0)).size === 50 && refetched().size >= 40 && offsetsOf(batches, 1).length === 50, 'both partitions read, the unresolved records again');
    await close(consumer);
    expect(joined[0]).toEqual({ [topic]: [0, 1] });
    for (const b of batches) {
      expect(b.highWatermark).toBe('50');
      expect(Number(b.lastOffset)).toBeGreaterThanOrEqual(Number(b.messages[b.messages.length - 1].offset));
      const offsets = b.messages.map((m) => Number(m.offset));
      expect(offsets).toEqual(offsets.map((_, k) => offsets[0] + k));
    }
    const first = offsetsOf(batches, 0);
    const secondBatch = batches.filter((b) => b.partition === 0)[1];
    expect(Number(secondBatch.messages[0].offset)).toBe(10);
    expect(first.filter((o) => o >= 10 && o < 50).length).toBeGreaterThan(40 - 1);
    expect(offsetsOf(batches, 1)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('pause / resume a partition; seek makes the current batch stale and the next fetch start there', async () => {
    const topic = await topicWith(2, 30);
    let staleSeen = false;
    let sought = false;
    let consumerRef: ConsumerPort | undefined;
    const { consumer, batches } = await consume(port, topic, unique('contract-group'), async ({ batch, resolveOffset, isStale }) => {
      if (batch.partition === 1 && !sought) {
        sought = true;
        consumerRef?.seek({ topic, partition: 1, offset: '20' });
        staleSeen = isStale();
        return;
      }
      for (const m of batch.messages) resolveOffset(m.offset);
    });
    consumerRef = consumer;
    consumer.pause([{ topic, partitions: [0] }]);
    await waitFor(() => offsetsOf(batches, 1).includes(29), 'partition 1 read after the seek');
    const pausedReads = offsetsOf(batches, 0).length;
    await new Promise((r) => setTimeout(r, 500)); // a period in which the paused partition must not be read: the fixed wait is the point
    expect(offsetsOf(batches, 0).length).toBe(pausedReads);
    consumer.resume([{ topic, partitions: [0] }]);
    await waitFor(() => offsetsOf(batches, 0).includes(29), 'partition 0 read after resume');
    await close(consumer);
    expect(staleSeen).toBe(true);
    const afterSeek = batches.filter((b) => b.partition === 1).slice(1).flatMap((b) => b.messages.map((m) => Number(m.offset)));
    expect(afterSeek).toEqual(Array.from({ length: 10 }, (_, i) => 20 + i));
  });

  it('commit, then a new member of the group starts at the committed offset', async () => {
    const topic = await topicWith(1, 40);
    const group = unique('contract-group');
    const first = await consume(port, topic, group);
    await waitFor(() => offsetsOf(first.batches, 0).includes(39), 'first read');
    await first.consumer.commitOffsets([{ topic, partition: 0, offset: '25' }]);
    await close(first.consumer);
    const second = await consume(port, topic, group);
    await waitFor(() => offsetsOf(second.batches, 0).includes(39), 'second read');
    await close(second.consumer);
    expect(offsetsOf(second.batches, 0)).toEqual(Array.from({ length: 15 }, (_, i) => 25 + i));
  });

  it('an unknown client is a ConfigError', () => {
    expect(() => createKafkaPort({ brokers: ['localhost:1'], client: 'rdkafka' as Client })).toThrow(/unknown Kafka client 'rdkafka'/);
  });
});
