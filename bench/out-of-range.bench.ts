import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKafkaPort } from '../connectors/kafka/create-kafka-port.js';
import { Rng } from '../src/rng/rng.js';
import { startLocalKafka } from '../scripts/local-kafka.js';
import { median } from './measure.js';

/**
 * What finite but huge features cost (issue 26, item 6): `vbstream run` (the CLI, a child process,
 * worker mode, vb-logit-online, d = 10) over the same N records good only and with 2% of them
 * carrying a feature of 1e200, from a JSONL file and from a 4-partition Kafka topic on a local
 * broker. Each child's CPU time (all threads) and peak RSS are read at its exit (`exit-usage.ts`);
 * the median of `REPEATS` runs is printed with the ratio mix / good. Set `OUT_OF_RANGE_BENCH_KAFKA=0`
 * to skip the broker.
 */
const N = Number(process.env.OUT_OF_RANGE_BENCH_RECORDS ?? 50_000);
const REPEATS = Number(process.env.OUT_OF_RANGE_BENCH_REPEATS ?? 3);
const D = 10;
const PARTITIONS = 4;
const cli = fileURLToPath(new URL('../cli/vbstream.js', import.meta.url));
const preload = new URL('./exit-usage.js', import.meta.url).href;
const work = mkdtempSync(join(tmpdir(), 'vbstream-out-of-range-'));

interface Usage {
  readonly cpuSeconds: number;
  readonly peakRssMb: number;
  readonly learned: string;
}

/** N seeded logistic records; with `every`, each `every`-th one has x[3] = 1e200. */
function records(every: number | undefined): { x: number[]; y: number }[] {
  const rng = Rng.fromSeed(11);
  return Array.from({ length: N }, (_, i) => {
    const x = Array.from({ length: D }, (_, j) => (j === 0 ? 1 : Math.round(rng.normal() * 1e4) / 1e4));
    const f = x.reduce((s, v, j) => s + v * (((j % 3) - 1) * 0.5), 0);
    const y = rng.nextDouble() < 1 / (1 + Math.exp(-f)) ? 1 : 0;
    if (every !== undefined && i % every === 7) x[3] = 1e200;
    return { x, y };
  });
}

/** One `vbstream run --config` child: its CPU seconds, peak RSS and the summary line it ends with. */
function run(config: object, name: string): Usage {
  const configPath = join(work, `${name}.json`);
  const usagePath = join(work, `${name}.usage.json`);
  writeFileSync(configPath, JSON.stringify(config));
  const child = spawnSync(process.execPath, ['--import', preload, cli, 'run', '--config', configPath], { encoding: 'utf8', env: { ...process.env, VBSTREAM_EXIT_USAGE: usagePath } });
  if (child.status !== 0) throw new Error(`vbstream run failed (${child.status}): ${child.stderr}`);
  const usage = JSON.parse(readFileSync(usagePath, 'utf8')) as NodeJS.ResourceUsage;
  const done = /done: (.*)$/m.exec(child.stdout)?.[1] ?? '?';
  return { cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, peakRssMb: usage.maxRSS / 1024, learned: done };
}

/** Runs good and mix alternately `REPEATS` times and prints the medians and their ratios. */
function compare(source: string, configOf: (mix: boolean, k: number) => object): void {
  const runs: { good: Usage[]; mix: Usage[] } = { good: [], mix: [] };
  for (let k = 0; k < REPEATS; k++) {
    runs.good.push(run(configOf(false, k), `${source}-good-${k}`));
    runs.mix.push(run(configOf(true, k), `${source}-mix-${k}`));
  }
  const cpu = (u: Usage[]) => median(u.map((x) => x.cpuSeconds));
  const rss = (u: Usage[]) => median(u.map((x) => x.peakRssMb));
  for (const kind of ['good', 'mix'] as const) {
    const label = kind === 'good' ? 'good only      ' : '2% 1e200 mixed ';
    process.stdout.write(`  ${source.padEnd(6)} ${label} CPU ${cpu(runs[kind]).toFixed(2)} s (runs ${runs[kind].map((u) => u.cpuSeconds.toFixed(2)).join(', ')}), peak RSS ${rss(runs[kind]).toFixed(0)} MB — ${runs[kind][0].learned}\n`);
  }
  process.stdout.write(`  ${source.padEnd(6)} mix / good: CPU ${(cpu(runs.mix) / cpu(runs.good)).toFixed(2)}×, peak RSS ${(rss(runs.mix) / rss(runs.good)).toFixed(2)}× (target ≤ 1.2×)\n`);
}

const common = { model: { family: 'vb-logit-online' }, worker: true, metrics: false };
try {
  process.stdout.write(`vbstream run (worker mode, vb-logit-online, d = ${D}), ${N.toLocaleString('en-US')} records, good only vs 2% with a feature of 1e200; median of ${REPEATS}\n`);
  const data = { good: records(undefined), mix: records(50) };
  for (const [kind, rows] of Object.entries(data)) {
    writeFileSync(join(work, `${kind}.jsonl`), `${rows.map(({ x, y }) => JSON.stringify({ ...Object.fromEntries(x.map((v, j) => [`x${j}`, v])), y })).join('\n')}\n`);
  }
  compare('jsonl', (mix, k) => ({
    ...common, source: { type: 'jsonl', path: join(work, `${mix ? 'mix' : 'good'}.jsonl`) }, minibatch: { size: 1000 },
    snapshots: { dir: join(work, `snapshots-${mix}-${k}`) }, sinks: { badRecords: { type: 'jsonl', path: join(work, `bad-${mix}-${k}.jsonl`) } },
  }));
  if (process.env.OUT_OF_RANGE_BENCH_KAFKA !== '0') {
    const broker = await startLocalKafka();
    try {
      const port = createKafkaPort({ brokers: [broker.bootstrap], logLevel: 'nothing' });
      const admin = port.admin();
      await admin.connect();
      const producer = port.producer();
      await producer.connect();
      for (const [kind, rows] of Object.entries(data)) {
        await admin.createTopics({ topics: [{ topic: `in-${kind}`, numPartitions: PARTITIONS, replicationFactor: 1 }], waitForLeaders: true });
        for (let first = 0; first < N; first += 1000) {
          await producer.send({ topic: `in-${kind}`, acks: -1, messages: rows.slice(first, first + 1000).map((r, i) => ({ value: JSON.stringify(r), partition: (first + i) % PARTITIONS })) });
        }
      }
      await producer.disconnect();
      await admin.disconnect();
      compare('kafka', (mix, k) => ({
        ...common, minibatch: { size: 1000 },
        source: { type: 'kafka', brokers: [broker.bootstrap], topic: `in-${mix ? 'mix' : 'good'}`, groupId: `g-${mix}-${k}`, dim: D, untilCaughtUp: true },
        snapshots: { topic: `snapshots-${mix}-${k}` },
      }));
    } finally {
      await broker.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
