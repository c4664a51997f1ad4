import { loadavg } from 'node:os';
import { createKafkaPort } from '../connectors/kafka/create-kafka-port.js';
import { KafkaPredictionLog } from '../serve/kafka-prediction-log.js';
import type { LoggedPrediction } from '../serve/logged-prediction.js';
import { startLocalKafka } from '../scripts/local-kafka.js';
import { formatCount, median } from './measure.js';

/**
 * The prediction log alone, without HTTP: `KafkaPredictionLog` on the local broker (acks = all,
 * idempotent producers, a 4-partition topic), 50 callers each logging one prediction and waiting
 * for its acknowledgement before the next (as 50 connections to a logged `vbstream serve` do),
 * for each client and each pool size of `PREDICTION_LOG_BENCH_PRODUCERS` (default `1,2,3`),
 * alternating the sizes over `PREDICTION_LOG_BENCH_ROUNDS` rounds (default 3) so that a load on
 * the machine that comes and goes weighs on each alike, after a round not counted (the first runs
 * of a client were up to 10× slower: the broker and the JIT warming up); `PREDICTION_LOG_BENCH_SECONDS` per run
 * (default 4). Prints predictions/s and this process's CPU per prediction (the client and the
 * writer) of every run, the median of each size and its ratio to one producer's.
 */
const SECONDS = Number(process.env.PREDICTION_LOG_BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.PREDICTION_LOG_BENCH_ROUNDS ?? 3);
const SIZES = (process.env.PREDICTION_LOG_BENCH_PRODUCERS ?? '1,2,3').split(',').map(Number);
const CALLERS = 50;
const D = 10;

const row = Array.from({ length: D }, (_, j) => (j === 0 ? 1 : Math.round(Math.sin(j) * 1000) / 1000));
let count = 0;
const prediction = (): LoggedPrediction => ({
  predictionId: `3f9c0a1b2c3d-${++count}`, x: row, version: 'v1', mean: 0.7310585786300049, variance: 0.19661193324148185, interval: [0.61, 0.83], level: 0.9,
  predictedAt: Date.now(), instance: '3f9c0a1b2c3d', family: 'adf-logit', dim: D,
});

interface Run {
  readonly perSecond: number;
  /** CPU of this process per prediction logged, µs. */
  readonly cpuUs: number;
}

async function measure(log: KafkaPredictionLog): Promise<Run> {
  for (let i = 0; i < 200; i++) await log.log([prediction()]); // warm-up
  let logged = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(Array.from({ length: CALLERS }, async () => {
    while (performance.now() < until) {
      await log.log([prediction()]);
      logged++;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { perSecond: logged / seconds, cpuUs: (used.user + used.system) / logged };
}

const broker = await startLocalKafka();
try {
  process.stdout.write(`${CALLERS} callers, one prediction each in flight, ${SECONDS} s per run, ${ROUNDS} rounds alternating the pool sizes after one not counted, 4 partitions, acks = all; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the start\n`);
  for (const client of ['platformatic', 'kafkajs'] as const) {
    const port = createKafkaPort({ brokers: [broker.bootstrap], logLevel: 'nothing', client });
    const runs = new Map<number, Run[]>(SIZES.map((size) => [size, []]));
    for (let round = -1; round < ROUNDS; round++) {
      for (const producers of SIZES) {
        const log = await KafkaPredictionLog.start(port, { predictionsTopic: `bench.log.${client}.${producers}.${round + 1}`, partitions: 4, producers });
        try {
          const run = await measure(log);
          if (round >= 0) runs.get(producers)!.push(run);
        } finally {
          await log.stop();
        }
      }
    }
    const one = median(runs.get(SIZES[0])!.map((r) => r.perSecond));
    process.stdout.write(`--kafka-client ${client}:\n`);
    for (const [producers, list] of runs) {
      const rate = median(list.map((r) => r.perSecond));
      process.stdout.write(`  ${producers} producer${producers === 1 ? ' ' : 's'}: median ${formatCount(rate).padStart(7)} predictions/s (${(rate / one).toFixed(2)}× ${SIZES[0]}), ${median(list.map((r) => r.cpuUs)).toFixed(0)} µs CPU per prediction; runs ${list.map((r) => `${formatCount(r.perSecond)}/s ${r.cpuUs.toFixed(0)} µs`).join(', ')}\n`);
    }
  }
  process.stdout.write(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end\n`);
} finally {
  await broker.stop();
}
