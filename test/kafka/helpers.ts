import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { getFamily } from '../../src/registry.js';
import { Rng } from '../../src/rng/rng.js';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import type { KafkaConnection } from '../../connectors/kafka/kafka-connection.js';
import type { AdminPort, KafkaPort } from '../../connectors/kafka/kafka-port.js';
import type { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import type { LearnerEvent } from '../../connectors/kafka/learner-event.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import { repoRoot } from '../helpers/reference.js';
import { waitFor } from '../helpers/wait-for.js';

export { waitFor };

/** The Kafka client the suite runs on: `VBSTREAM_TEST_KAFKA_CLIENT` (`kafkajs` or `platformatic`), else the default. */
export function testKafkaClient(): KafkaConnection['client'] {
  return process.env.VBSTREAM_TEST_KAFKA_CLIENT as KafkaConnection['client'];
}

/** A port of the suite's client ({@link testKafkaClient}) on the suite's broker. */
export function brokerPort(): KafkaPort {
  return createKafkaPort({ brokers: [inject('kafkaBootstrap')], clientId: 'vbstream-test', logLevel: 'nothing', client: testKafkaClient() });
}

/** A port on the suite's broker and its admin client for a describe block: the admin connects before the block's tests and disconnects after them. */
export function suiteBroker(): { readonly port: KafkaPort; readonly admin: AdminPort } {
  const port = brokerPort();
  const admin = port.admin();
  beforeAll(() => admin.connect());
  afterAll(() => admin.disconnect());
  return { port, admin };
}

/** A topic (or group) name no other test uses. */
export function unique(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Linear-regression records y = w·x + noise, record i on partition i mod P, as produced. */
export interface ProducedData {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly n: number;
  readonly d: number;
}

/** Seeded synthetic data: x ~ N(0, I) (first feature 1), y = w·x + 0.5·ε, or y ∈ {0,1} when `binary`. */
export function syntheticData(n: number, d: number, seed: number, binary = false): ProducedData {
  const rng = Rng.fromSeed(seed);
  const w = Array.from({ length: d }, (_, j) => (j % 3) - 1 + 0.25 * j);
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let f = 0;
    for (let j = 0; j < d; j++) {
      const v = j === 0 ? 1 : rng.normal();
      x[i * d + j] = v;
      f += (w[j] * v) / (binary ? d : 1);
    }
    y[i] = binary ? Number(rng.nextDouble() < 1 / (1 + Math.exp(-f))) : f + 0.5 * rng.normal();
  }
  return { x, y, n, d };
}

/** The JSON value `{"x":[...],"y":...}` of record i. */
export function recordJson(data: ProducedData, i: number): string {
  return JSON.stringify({ x: Array.from(data.x.subarray(i * data.d, (i + 1) * data.d)), y: data.y[i] });
}

/** Creates a topic with `partitions` partitions. */
export async function createTopic(admin: AdminPort, topic: string, partitions: number): Promise<void> {
  await admin.createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor: 1 }], waitForLeaders: true });
}

/** Produces `values[i]` to partition i mod `partitions`, in order, in sends of `chunk` records. */
export async function produceValues(port: KafkaPort, topic: string, values: readonly (string | Buffer | null)[], partitions: number, chunk = 1000): Promise<void> {
  const producer = port.producer();
  await producer.connect();
  for (let start = 0; start < values.length; start += chunk) {
    const messages = [];
    for (let i = start; i < Math.min(values.length, start + chunk); i++) messages.push({ key: `k${i}`, value: values[i], partition: i % partitions });
    await producer.send({ topic, messages, acks: -1 });
  }
  await producer.disconnect();
}

/** The group's committed offsets of `topic`, by partition (-1: none). */
export async function committedOffsets(admin: AdminPort, groupId: string, topic: string): Promise<number[]> {
  const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return (entry?.partitions ?? []).sort((a, b) => a.partition - b.partition).map((p) => Number(p.offset));
}

/** One model of `family` fed the given records in one batch. */
export function batchFit(family: string, data: ProducedData, rows: readonly number[] = Array.from({ length: data.n }, (_, i) => i), options?: unknown): OnlineModel {
  const model = getFamily(family).create(data.d, options);
  const x = new Float64Array(rows.length * data.d);
  const y = new Float64Array(rows.length);
  rows.forEach((r, k) => {
    x.set(data.x.subarray(r * data.d, (r + 1) * data.d), k * data.d);
    y[k] = data.y[r];
  });
  model.update({ x, y, n: rows.length, d: data.d });
  return model;
}

/** Whether every partition's latest snapshot of `model` has reached the topic's end. */
export async function snapshotsAtEnd(admin: AdminPort, store: KafkaSnapshotStore, topic: string, model: string): Promise<boolean> {
  const ends = await admin.fetchTopicOffsets(topic);
  for (const { partition, high } of ends) {
    const bytes = await store.latest(snapshotKey(model, partition));
    if (bytes === undefined) return Number(high) === 0;
    if (decodeSnapshot(bytes).meta.nextOffset !== Number(high)) return false;
  }
  return true;
}

/** A service child process on the suite's broker (the learner service, `vbstream <command>` when `command` is given, or the node script `script` of the repository) and the JSON-line events it prints. */
export class ServiceProcess<E extends { readonly type: string } = LearnerEvent> {
  readonly events: E[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr = '';
  private readonly child: ChildProcess;

  /** Starts `vbstream <command>` (or learner-main.js, or `script`) with `args` on `brokers` (default: the suite's broker). */
  constructor(args: readonly string[], command?: string, script?: string, brokers: string = inject('kafkaBootstrap')) {
    const entry = script !== undefined ? [script] : command === undefined ? ['dist/connectors/kafka/learner-main.js'] : ['dist/cli/vbstream.js', command];
    const client = testKafkaClient();
    const clientArgs = client === undefined || script !== undefined ? [] : ['--kafka-client', client]; // a script reads the variable itself
    this.child = spawn(process.execPath, [join(repoRoot, entry[0]), ...entry.slice(1), '--brokers', brokers, ...clientArgs, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffered = '';
    this.child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') this.events.push(JSON.parse(line) as E);
    });
    this.child.stderr?.on('data', (chunk: Buffer) => { this.stderr += chunk.toString('utf8'); });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** SIGKILL now (a crash) and wait for the exit. */
  async kill(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.kill('SIGKILL');
    return this.exited;
  }

  /** SIGTERM (graceful: the learner snapshots and commits) and wait for the exit. */
  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.kill('SIGTERM');
    return this.exited;
  }

  /** Sends `signal` without waiting. */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }
}

/**
 * Reads `topic` from the beginning (a throwaway group) until it has `count` records, with their headers and partition;
 * with `distinctKeys`, until it has `count` different keys (an at-least-once writer may have written some twice).
 */
export async function readRecords(port: KafkaPort, topic: string, count: number, distinctKeys = false): Promise<{ partition: number; offset: string; key: string | null; value: Buffer | null; headers: { [k: string]: string } }[]> {
  const consumer = port.consumer({ groupId: unique('reader'), maxWaitTimeInMs: 100 });
  const out: { partition: number; offset: string; key: string | null; value: Buffer | null; headers: { [k: string]: string } }[] = [];
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      for (const m of batch.messages) {
        const headers: { [k: string]: string } = {};
        for (const [k, v] of Object.entries(m.headers ?? {})) if (v !== undefined) headers[k] = v.toString();
        out.push({ partition: batch.partition, offset: m.offset, key: m.key?.toString() ?? null, value: m.value, headers });
      }
    },
  });
  try {
    const have = (): number => (distinctKeys ? new Set(out.map((record) => record.key)).size : out.length);
    await waitFor(() => have() >= count, () => `${count} ${distinctKeys ? 'keys' : 'records'} on ${topic} (have ${have()})`);
  } finally {
    await consumer.disconnect();
  }
  return out;
}
