import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import type { AdminPort, KafkaPort } from '../../connectors/kafka/kafka-port.js';
import { unique } from './helpers.js';

/** Kafka's API key of a produce request. */
const PRODUCE = 0;
/** Where `@platformatic/kafka` announces each request it writes to a broker connection (the start of its `connections:api` tracing channel). */
const API_START = 'tracing:plt:kafka:connections:api:start';

/** Counts the produce requests `@platformatic/kafka` writes to a broker connection while `work` runs. */
async function produceRequestsOf(work: () => Promise<unknown>): Promise<number> {
  let requests = 0;
  const started = (context: unknown): void => { if ((context as { apiKey?: number }).apiKey === PRODUCE) requests++; };
  subscribe(API_START, started);
  try {
    await work();
  } finally {
    unsubscribe(API_START, started);
  }
  return requests;
}

describe('the platformatic producer port on the real broker', () => {
  let port: KafkaPort;
  let admin: AdminPort;
  beforeAll(async () => {
    port = createKafkaPort({ brokers: [inject('kafkaBootstrap')], clientId: 'platformatic-producer', logLevel: 'nothing', client: 'platformatic' });
    admin = port.admin();
    await admin.connect();
  });
  afterAll(() => admin.disconnect());

  async function topicWith(partitions: number, configEntries: { name: string; value: string }[] = []): Promise<string> {
    const topic = unique('platformatic-producer');
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor: 1, configEntries }], waitForLeaders: true })).toBe(true);
    return topic;
  }

  const ends = async (topic: string): Promise<number[]> => (await admin.fetchTopicOffsets(topic)).sort((a, b) => a.partition - b.partition).map((p) => Number(p.high));

  it('an idempotent send over four partitions of one broker is one produce request carrying them all', async () => {
    const topic = await topicWith(4);
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      // Every partition written once first: a partition just created may refuse a first write while its leader settles, which the client retries.
      await producer.send({ topic, acks: -1, messages: Array.from({ length: 4 }, (_, p) => ({ partition: p, value: 'warm-up' })) });
      const requests = await produceRequestsOf(() => producer.send({ topic, acks: -1, messages: Array.from({ length: 40 }, (_, i) => ({ partition: i % 4, value: `r${i}` })) }));
      expect(requests).toBe(1);
    } finally {
      await producer.disconnect();
    }
    expect(await ends(topic)).toEqual([11, 11, 11, 11]);
  });

  it('a send of 512 KiB of records (as produceSlices counts them) to one partition is one produce request; a byte more is two, every record written once', async () => {
    const topic = await topicWith(1);
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    // Two records of 24 bytes of framing and 262,120 of value each: 524,288 bytes, the request limit; `extra` bytes more in the second.
    const pair = (extra: number) => [{ partition: 0, value: Buffer.alloc(262_120, 1) }, { partition: 0, value: Buffer.alloc(262_120 + extra, 2) }];
    try {
      await producer.send({ topic, acks: -1, messages: [{ partition: 0, value: 'warm-up' }] });
      expect(await produceRequestsOf(() => producer.send({ topic, acks: -1, messages: pair(0) }))).toBe(1);
      expect(await produceRequestsOf(() => producer.send({ topic, acks: -1, messages: pair(1) }))).toBe(2);
    } finally {
      await producer.disconnect();
    }
    expect(await ends(topic)).toEqual([5]);
  });

  it('after a send the broker refused in part, the next send starts a new producer id: its records are written, not taken for duplicates', async () => {
    const topic = await topicWith(2, [{ name: 'max.message.bytes', value: '10000' }]);
    const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      // Partition 0's record is written; partition 1's batch is over the topic's limit and refused, so the send fails.
      await expect(producer.send({ topic, acks: -1, messages: [{ partition: 0, value: 'first' }, { partition: 1, value: 'x'.repeat(20_000) }] })).rejects.toThrow();
      expect(await ends(topic)).toEqual([1, 0]);
      // The same number of records to partition 0 again: with the failed send's sequence numbers reused, the broker would answer it as a duplicate and drop it.
      await producer.send({ topic, acks: -1, messages: [{ partition: 0, value: 'second' }] });
      await producer.send({ topic, acks: -1, messages: [{ partition: 0, value: 'third' }, { partition: 1, value: 'fourth' }] });
    } finally {
      await producer.disconnect();
    }
    expect(await ends(topic)).toEqual([3, 1]);
  });
});
