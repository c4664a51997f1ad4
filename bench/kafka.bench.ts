import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import { Rng } from '../src/rng/rng.js';
import { families } from '../src/registry.js';
import { createKafkaPort } from '../connectors/kafka/create-kafka-port.js';
import type { KafkaConnection } from '../connectors/kafka/kafka-connection.js';
import type { KafkaPort } from '../connectors/kafka/kafka-port.js';
import { KafkaSnapshotStore } from '../connectors/kafka/kafka-snapshot-store.js';
import { PartitionedLearner } from '../connectors/kafka/partitioned-learner.js';
import { startLocalKafka } from '../scripts/local-kafka.js';
import { consumeTopic } from './consume-topic.js';
import { formatCount } from './measure.js';

/**
 * End-to-end Kafka benchmark on the local broker (loopback), one client library after the other in
 * one run: produce N JSON records (p = 10) to a 4-partition topic (acks = all; after the same N to
 * another topic, so the client, its connections and the broker are warm; both figures printed), read them back
 * with a plain consume loop (resolve only, no decoding), then consume and learn them with one
 * PartitionedLearner (one process, one model per partition in worker threads, snapshots every
 * 50,000 records per partition and at each partition's end), sampling the event-loop delay and the
 * main thread's busy time (event-loop utilisation; JSON values are decoded in the workers) and the
 * backpressure pauses while learning. Prints each client's figures, consumer lag over time, and
 * the ratios between clients.
 * `@confluentinc/kafka-javascript` is measured only when it is installed (its native librdkafka
 * binary downloads from GitHub at install time); otherwise the run says it was skipped and why.
 */
const N = Number(process.env.KAFKA_BENCH_RECORDS ?? 200_000);
const D = 10;
const PARTITIONS = 4;
const vbstreamCli = fileURLToPath(new URL('../cli/vbstream.js', import.meta.url));
const CLIENTS = (process.env.KAFKA_BENCH_CLIENTS ?? 'kafkajs,platformatic').split(',') as NonNullable<KafkaConnection['client']>[];

interface ClientFigures {
  readonly produce: number;
  readonly consume: number;
  readonly learn: number;
  readonly p99: number;
  readonly mainBusyMs: number;
}

function recordValues(task: string, seed: number): string[] {
  const rng = Rng.fromSeed(seed);
  const values: string[] = [];
  const x = new Array<number>(D);
  for (let i = 0; i < N; i++) {
    let f = 0;
    for (let j = 0; j < D; j++) {
      x[j] = j === 0 ? 1 : Math.round(rng.normal() * 1e6) / 1e6;
      f += x[j] * (((j % 3) - 1) * 0.5);
    }
    const y = task === 'classification' ? Number(rng.nextDouble() < 1 / (1 + Math.exp(-f))) : f + 0.5 * rng.normal();
    values.push(JSON.stringify({ x, y }));
  }
  return values;
}

/** Records/s of producing `values` (1,000 per send, at most 8 sends in flight: a new one as soon as one is acknowledged; acks = all). */
async function produce(port: KafkaPort, topic: string, values: readonly string[]): Promise<number> {
  const producer = port.producer();
  await producer.connect();
  const start = performance.now();
  const inFlight = new Set<Promise<unknown>>();
  for (let first = 0; first < N; first += 1000) {
    const send = producer.send({ topic, acks: -1, messages: values.slice(first, first + 1000).map((value, k) => ({ value, partition: (first + k) % PARTITIONS })) });
    inFlight.add(send);
    void send.then(() => inFlight.delete(send), () => undefined);
    if (inFlight.size === 8) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  const ms = performance.now() - start;
  await producer.disconnect();
  return (N / ms) * 1000;
}

/** Records/s of `vbstream kafka:produce --synthetic N --dim 9` (p = 10 with the intercept) from spawning the CLI to its exit, start-up included. */
function produceCommand(bootstrap: string, client: string, topic: string): number {
  const start = performance.now();
  const run = spawnSync(process.execPath, [vbstreamCli, 'kafka:produce', '--brokers', bootstrap, '--topic', topic, '--partitions', String(PARTITIONS), '--synthetic', String(N), '--dim', String(D - 1), '--kafka-client', client], { encoding: 'utf8' });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`vbstream kafka:produce failed: ${run.stderr}`);
  return (N / ms) * 1000;
}

/** Milliseconds of one send of 20,000 records to one partition (acks = all): where kafkajs's per-partition grouping is quadratic in a send's records. */
async function oneLargeSend(port: KafkaPort, topic: string, values: readonly string[]): Promise<number> {
  const producer = port.producer();
  await producer.connect();
  const messages = values.slice(0, 20_000).map((value) => ({ value, partition: 0 }));
  const start = performance.now();
  await producer.send({ topic, acks: -1, messages });
  const ms = performance.now() - start;
  await producer.disconnect();
  return ms;
}

/** Records/s of a plain consume loop over the whole topic (eachBatch, resolve the last offset, nothing else), from the first batch to the last record. */
async function consumeLoop(port: KafkaPort, topic: string): Promise<number> {
  return (await consumeTopic(port, topic, N, { groupId: `${topic}-plain`, maxBytesPerPartition: 1_048_576 })).rate;
}

async function benchClient(bootstrap: string, client: NonNullable<KafkaConnection['client']>, family: string, values: readonly string[]): Promise<ClientFigures> {
  const port = createKafkaPort({ brokers: [bootstrap], logLevel: 'nothing', client });
  const admin = port.admin();
  await admin.connect();
  const topic = `bench-${client}-${family}-${Date.now()}`;
  await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 1 }], waitForLeaders: true });
  // The first pass runs on a cold client and a cold broker (JIT, connections, log segments): it fills a topic of its own; the second, warm, is the figure.
  await admin.createTopics({ topics: [{ topic: `${topic}.cold`, numPartitions: PARTITIONS, replicationFactor: 1 }], waitForLeaders: true });
  const producedCold = await produce(port, `${topic}.cold`, values);
  const produced = await produce(port, topic, values);
  const largeSendMs = await oneLargeSend(port, `${topic}.cold`, values);
  const producedByCommand = produceCommand(bootstrap, client, `${topic}.command`);
  const consumed = await consumeLoop(port, topic);

  const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
  const done = new Set<number>();
  let firstRestore = 0;
  let finished = 0;
  let eluAtRestore: EventLoopUtilization | undefined;
  let eluLearning: EventLoopUtilization | undefined;
  let resolveDone: () => void = () => undefined;
  const allDone = new Promise<void>((r) => { resolveDone = r; });
  const learner = new PartitionedLearner(port, store, {
    topic, groupId: `${topic}-group`, model: family, family, schema: { dim: D }, snapshotEvery: 50_000, chunkSize: 1000,
    onEvent: (event) => {
      if (event.type === 'restored' && firstRestore === 0) {
        firstRestore = performance.now();
        eluAtRestore = performance.eventLoopUtilization();
      }
      if (event.type === 'committed' && event.nextOffset === N / PARTITIONS) {
        done.add(event.partition);
        if (done.size === PARTITIONS) {
          finished = performance.now();
          eluLearning = performance.eventLoopUtilization(performance.eventLoopUtilization(), eluAtRestore);
          resolveDone();
        }
      }
    },
  });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const lagSeries: [seconds: number, lag: number][] = []; // formatted after the run: the first toLocaleString loads ICU data on the event loop
  const startedAt = performance.now();
  delay.enable();
  const sampler = setInterval(() => {
    let lag = 0;
    const owned = learner.partitions();
    for (let p = 0; p < PARTITIONS; p++) lag += N / PARTITIONS - (owned.get(p)?.nextOffset ?? 0);
    lagSeries.push([(performance.now() - startedAt) / 1000, lag]);
  }, 250);
  await learner.start((error) => { throw error; });
  await allDone;
  const pauses = [...learner.partitions().values()].reduce((sum, partition) => sum + partition.pauses, 0);
  clearInterval(sampler);
  delay.disable();
  await learner.stop();
  await store.close();
  await admin.disconnect();
  const learnMs = finished - firstRestore;
  const learned = (N / learnMs) * 1000;
  const p99 = delay.percentile(99) / 1e6;
  process.stdout.write(`${client}: ${family} (p = ${D}, JSON, ${formatCount(N)} records, ${PARTITIONS} partitions, one process):\n`);
  process.stdout.write(`  produce (acks=all, 1k per send, 8 in flight): ${formatCount(produced)} records/s (the same ${formatCount(N)} records just before, cold: ${formatCount(producedCold)} records/s)\n`);
  process.stdout.write(`  vbstream kafka:produce --synthetic ${N} (sends of 5,000, idempotent, one at a time; process start-up included): ${formatCount(producedByCommand)} records/s\n`);
  process.stdout.write(`  one send of 20,000 records to one partition (acks=all): ${largeSendMs.toFixed(0)} ms\n`);
  process.stdout.write(`  plain consume loop (eachBatch, resolve only):  ${formatCount(consumed)} records/s\n`);
  process.stdout.write(`  consume + decode + learn + snapshots:          ${formatCount(learned)} records/s (${(learnMs / 1000).toFixed(2)} s from the first assignment to the last commit; group join ${((firstRestore - startedAt) / 1000).toFixed(2)} s before); ${(learned / consumed).toFixed(2)}× the plain loop\n`);
  process.stdout.write(`  consumer lag (records behind, every 250 ms): ${lagSeries.map(([seconds, lag]) => `${seconds.toFixed(2)}s:${formatCount(lag)}`).join(' ')}\n`);
  process.stdout.write(`  event-loop delay while learning: p50 ${(delay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms\n`);
  const mainBusyMs = eluLearning!.active;
  process.stdout.write(`  main thread while learning: busy ${mainBusyMs.toFixed(0)} ms (${((mainBusyMs * 1000) / N).toFixed(2)} µs per record), event-loop utilisation ${(eluLearning!.utilization * 100).toFixed(0)}%; backpressure paused a partition ${pauses} times\n`);
  return { produce: produced, consume: consumed, learn: learned, p99, mainBusyMs };
}

/** Says whether @confluentinc/kafka-javascript can be loaded here, and why not. */
async function confluentAvailability(): Promise<string | undefined> {
  try {
    await import('@confluentinc/kafka-javascript' as string);
    return undefined;
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
}

const broker = await startLocalKafka();
try {
  process.stdout.write(`broker: Apache Kafka (KRaft, single node) at ${broker.bootstrap}; clients ${CLIENTS.join(', ')}\n`);
  const missing = await confluentAvailability();
  if (missing !== undefined) {
    process.stdout.write(`@confluentinc/kafka-javascript: skipped — not installed (${missing}); its install needs the librdkafka binary from github.com releases (or a source build that downloads zlib, OpenSSL, zstd and curl), which an npm-registry-only machine cannot reach\n`);
  }
  const family = 'vb-logit-online';
  const descriptor = families.get(family);
  if (descriptor === undefined) throw new Error(`${family} is not registered`);
  const values = recordValues(descriptor.task, 3);
  const figures = new Map<string, ClientFigures>();
  for (const client of CLIENTS) figures.set(client, await benchClient(broker.bootstrap, client, family, values));
  const base = figures.get('kafkajs');
  for (const [client, f] of figures) {
    if (client === 'kafkajs' || base === undefined) continue;
    process.stdout.write(`${client} / kafkajs: produce ${(f.produce / base.produce).toFixed(2)}×, plain consume ${(f.consume / base.consume).toFixed(2)}×, learn ${(f.learn / base.learn).toFixed(2)}×, p99 event-loop delay ${(f.p99 / base.p99).toFixed(2)}× (${f.p99.toFixed(1)} vs ${base.p99.toFixed(1)} ms)\n`);
  }
} finally {
  await broker.stop();
}
