import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Rng } from '../src/rng/rng.js';
import { families } from '../src/registry.js';
import { createKafkajsPort } from '../connectors/kafka/kafkajs-port.js';
import { KafkaSnapshotStore } from '../connectors/kafka/kafka-snapshot-store.js';
import { PartitionedLearner } from '../connectors/kafka/partitioned-learner.js';
import { startLocalKafka } from '../scripts/local-kafka.js';
import { formatCount } from './measure.js';

/**
 * End-to-end Kafka benchmark on the local broker (loopback): produce N JSON records (p = 10) to a
 * 4-partition topic, then consume and learn them with one PartitionedLearner (one process, one
 * model per partition, snapshots every 50,000 records per partition and at each partition's end).
 * Prints produce and learn rates, consumer lag over time and the event-loop delay while learning.
 */
const N = Number(process.env.KAFKA_BENCH_RECORDS ?? 200_000);
const D = 10;
const PARTITIONS = 4;

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

async function benchFamily(bootstrap: string, family: string): Promise<void> {
  const descriptor = families.get(family);
  if (descriptor === undefined) {
    process.stdout.write(`${family}: not in this build's registry (being built on another branch); nothing measured\n`);
    return;
  }
  const port = createKafkajsPort({ brokers: [bootstrap], logLevel: 'nothing' });
  const admin = port.admin();
  await admin.connect();
  const topic = `bench-${family}-${Date.now()}`;
  await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS, replicationFactor: 1 }], waitForLeaders: true });
  const values = recordValues(descriptor.task, 3);
  const producer = port.producer();
  await producer.connect();
  const produceStart = performance.now();
  // 1,000 records per send, 8 sends in flight: kafkajs groups a send's messages by partition in
  // O(n²) (producer/groupMessagesPerPartition.js), so large sends are slow.
  const sends: Promise<unknown>[] = [];
  for (let start = 0; start < N; start += 1000) {
    sends.push(producer.send({ topic, acks: -1, messages: values.slice(start, start + 1000).map((value, k) => ({ value, partition: (start + k) % PARTITIONS })) }));
    if (sends.length === 8) await Promise.all(sends.splice(0));
  }
  await Promise.all(sends);
  const produceMs = performance.now() - produceStart;
  await producer.disconnect();

  const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
  const done = new Set<number>();
  let firstRestore = 0;
  let finished = 0;
  let resolveDone: () => void = () => undefined;
  const allDone = new Promise<void>((r) => { resolveDone = r; });
  const learner = new PartitionedLearner(port, store, {
    topic, groupId: `${topic}-group`, model: family, family, schema: { dim: D }, snapshotEvery: 50_000, chunkSize: 1000,
    onEvent: (event) => {
      if (event.type === 'restored' && firstRestore === 0) firstRestore = performance.now();
      if (event.type === 'committed' && event.nextOffset === N / PARTITIONS) {
        done.add(event.partition);
        if (done.size === PARTITIONS) { finished = performance.now(); resolveDone(); }
      }
    },
  });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const lagSeries: string[] = [];
  const startedAt = performance.now();
  delay.enable();
  const sampler = setInterval(() => {
    let lag = 0;
    const owned = learner.partitions();
    for (let p = 0; p < PARTITIONS; p++) lag += N / PARTITIONS - (owned.get(p)?.nextOffset ?? 0);
    lagSeries.push(`${((performance.now() - startedAt) / 1000).toFixed(2)}s:${formatCount(lag)}`);
  }, 250);
  await learner.start((error) => { throw error; });
  await allDone;
  clearInterval(sampler);
  delay.disable();
  await learner.stop();
  await store.close();
  await admin.disconnect();
  const learnMs = finished - firstRestore;
  process.stdout.write(`${family} (p = ${D}, JSON, ${formatCount(N)} records, ${PARTITIONS} partitions, one consumer):\n`);
  process.stdout.write(`  produce (acks=all, 1k per send, 8 in flight): ${formatCount((N / produceMs) * 1000)} records/s\n`);
  process.stdout.write(`  consume + decode + learn + snapshots:  ${formatCount((N / learnMs) * 1000)} records/s (${(learnMs / 1000).toFixed(2)} s from the first assignment to the last commit; group join ${((firstRestore - startedAt) / 1000).toFixed(2)} s before)\n`);
  process.stdout.write(`  end to end (produce, join, learn):     ${formatCount((N / (produceMs + finished - startedAt)) * 1000)} records/s\n`);
  process.stdout.write(`  consumer lag (records behind, every 250 ms): ${lagSeries.join(' ')}\n`);
  process.stdout.write(`  event-loop delay while learning: p50 ${(delay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms\n`);
}

const broker = await startLocalKafka();
try {
  process.stdout.write(`broker: Apache Kafka (KRaft, single node) at ${broker.bootstrap}; client kafkajs\n`);
  for (const family of ['vb-logit-online', 'direct']) await benchFamily(broker.bootstrap, family);
} finally {
  await broker.stop();
}
