import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createKafkaPort } from '../connectors/kafka/create-kafka-port.js';
import type { KafkaPort, PortMessage } from '../connectors/kafka/kafka-port.js';
import type { OnlineModel } from '../src/core/online-model.js';
import { getFamily } from '../src/registry.js';
import { startLocalKafka } from '../scripts/local-kafka.js';
import { consumeTopic, type ConsumeFigures } from './consume-topic.js';
import { formatCount } from './measure.js';
import { processCpuMs } from './process-cpu-ms.js';

/**
 * The runtime's own cost (issue 28, item 8): `vbstream run` from Kafka against the honest limit of
 * its work, on one local KRaft broker, the default client (`platformatic`), per family and for a
 * topic of 1 and of 4 partitions (N JSON records `{"x":[…],"y":…}`, p = 10, written by `vbstream
 * kafka:produce --synthetic`), in one run:
 *   - plain consume: a consume loop of the same client (eachBatch, resolve only);
 *   - bare loop: the same consume loop that `JSON.parse`s every value, writes x and y into a
 *     `Float64Array` chunk of 1,000 records and calls `model.update` of the partition's model in
 *     this one thread: no snapshots, workers, metrics, commits or prequential scores;
 *   - `vbstream run`: the CLI as a spawned process on a pipeline config with a Kafka source on the
 *     topic (defaults otherwise: workers, snapshots, metrics on a free port, prequential scores),
 *     `untilCaughtUp`. Timed by the group's committed offsets, read by an admin client every 50 ms:
 *     from the first commit (the first snapshot made durable) until they reach every partition's
 *     end, records/s over the records committed in between; its CPU time is the process's (all
 *     threads, /proc) over the same span, and its main thread's beside it (what four partitions wait on).
 * Each figure is records/s of wall time; CPU ms per 1,000 records beside it, and the broker's (its
 * JVM's CPU time from /proc over the same span) after it. The targets: `vbstream run` ≥ 0.8× the bare
 * loop on one partition and ≥ 1.5× it on four (both cores used). For four partitions each run's
 * ceiling is printed: the rate the machine's cores allow when the run and the broker share them and
 * nothing else runs, cores / (the run's CPU + the broker's CPU per record), over the bare loop's rate
 * (how far 1.5× is reachable on this machine at all), and over the bare loop's own ceiling (one thread
 * beside the broker: the lesser of 1 / its CPU and cores / (its CPU + the broker's) per record), which
 * does not move with how much of a core the bare loop got on a loaded machine.
 * `KAFKA_RUNTIME_RECORDS` (default 200,000), `KAFKA_RUNTIME_REPEATS` (3), `KAFKA_RUNTIME_FAMILIES`
 * (adf-logit,vb-logit-online), `KAFKA_RUNTIME_PARTITIONS` (1,4), `KAFKA_RUNTIME_MINIBATCH` (the run's `minibatch.size`: a comma-separated list runs `vbstream run` once per size beside the same bare loop; default the config's); `KAFKA_RUNTIME_BASELINE=path` (the `cli/vbstream.js` of another build, e.g. an earlier commit's) runs that build's `vbstream run` too, beside the same bare loop; `KAFKA_RUNTIME_PROFILE=dir` runs
 * `vbstream run` under `node --cpu-prof` (profiles of the main and worker threads in dir/<partitions>p-<family>-<repeat>/).
 */
const N = Number(process.env.KAFKA_RUNTIME_RECORDS ?? 200_000);
const REPEATS = Number(process.env.KAFKA_RUNTIME_REPEATS ?? 3);
const FAMILIES = (process.env.KAFKA_RUNTIME_FAMILIES ?? 'adf-logit,vb-logit-online').split(',');
const PARTITION_COUNTS = (process.env.KAFKA_RUNTIME_PARTITIONS ?? '1,4').split(',').map(Number);
const PROFILE = process.env.KAFKA_RUNTIME_PROFILE;
/** The `minibatch.size` of each `vbstream run` per case (undefined: the config's default). */
const MINIBATCHES: readonly (number | undefined)[] = process.env.KAFKA_RUNTIME_MINIBATCH === undefined ? [undefined] : process.env.KAFKA_RUNTIME_MINIBATCH.split(',').map(Number);
/** Another build's CLI to run beside this one's (a before/after in one run). */
const BASELINE_CLI = process.env.KAFKA_RUNTIME_BASELINE;
const D = 10;
const CHUNK = 1000;
/** The fetch size of `vbstream run`'s Kafka source (`source.maxBytesPerPartition` default), used by every loop here. */
const FETCH_BYTES = 262_144;
const vbstreamCli = fileURLToPath(new URL('../cli/vbstream.js', import.meta.url));
const TARGETS: Record<number, number> = { 1: 0.8, 4: 1.5 };

interface Figures extends ConsumeFigures {
  readonly label: string;
  /** `vbstream run`'s main thread alone (the consumer, packing, the workers' replies), CPU ms over the measured records. */
  readonly mainCpuMs?: number;
  /** The broker's CPU ms over the same span, scaled to the measured records. */
  readonly brokerCpuMs: number;
}

/** Writes `N` synthetic logistic records (p = 10 features) to a new topic of `partitions` partitions with the CLI. */
function produceTopic(bootstrap: string, topic: string, partitions: number): void {
  const run = spawnSync(process.execPath, [vbstreamCli, 'kafka:produce', '--brokers', bootstrap, '--topic', topic, '--partitions', String(partitions), '--synthetic', String(N), '--dim', String(D)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`vbstream kafka:produce failed: ${run.stderr}`);
}

/** The bare loop: JSON.parse every value, pack x and y in chunks of {@link CHUNK}, `model.update` per chunk of each partition's model, in this thread. */
async function bareLoop(port: KafkaPort, topic: string, family: string, tag: string, brokerPid: number): Promise<Figures> {
  const models = new Map<number, OnlineModel>();
  const x = new Float64Array(CHUNK * D);
  const y = new Float64Array(CHUNK);
  const each = (partition: number, messages: readonly PortMessage[]): void => {
    let model = models.get(partition);
    if (model === undefined) models.set(partition, model = getFamily(family).create(D));
    for (let from = 0; from < messages.length; from += CHUNK) {
      const n = Math.min(CHUNK, messages.length - from);
      for (let i = 0; i < n; i++) {
        const record = JSON.parse((messages[from + i].value as Buffer).toString('utf8')) as { x: number[]; y: number };
        for (let j = 0; j < D; j++) x[i * D + j] = record.x[j];
        y[i] = record.y;
      }
      model.update({ x: x.subarray(0, n * D), y: y.subarray(0, n), n, d: D });
    }
  };
  const figures = await consumeTopic(port, topic, N, { groupId: `${topic}-bare-${tag}`, maxBytesPerPartition: FETCH_BYTES, each, watchPid: brokerPid });
  return { label: 'bare loop', ...figures, brokerCpuMs: figures.watchedCpuMs ?? 0 };
}

/** `vbstream run` as a spawned process over `topic`, until the group has committed every partition's end. */
async function vbstreamRun(port: KafkaPort, bootstrap: string, brokerPid: number, topic: string, partitions: number, family: string, tag: string, dir: string, minibatch: number | undefined, cli = vbstreamCli): Promise<Figures> {
  const groupId = `${topic}-run-${tag}`;
  const config = join(dir, `${groupId}.json`);
  writeFileSync(config, JSON.stringify({
    source: { type: 'kafka', brokers: [bootstrap], topic, groupId, dim: D, untilCaughtUp: true },
    model: { family }, snapshots: { topic: `${groupId}.snapshots` }, metrics: { port: 0 }, ...(minibatch === undefined ? {} : { minibatch: { size: minibatch } }),
  }));
  const profile = PROFILE === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE, `${partitions}p-${tag}`)}`];
  const child = spawn(process.execPath, [...profile, cli, 'run', '--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const admin = port.admin();
  await admin.connect();
  const ends = new Map((await admin.fetchTopicOffsets(topic)).map(({ partition, high }) => [partition, Number(high)]));
  let start: { at: number; cpuMs: number; mainCpuMs: number; brokerCpuMs: number; committed: number } | undefined;
  let end: { at: number; cpuMs: number; mainCpuMs: number; brokerCpuMs: number } | undefined;
  let code: number | null | undefined;
  void exited.then((c) => { code = c; });
  while (end === undefined && code === undefined) {
    const committed = ((await admin.fetchOffsets({ groupId, topics: [topic] }))[0]?.partitions ?? []).filter(({ offset }) => Number(offset) > 0);
    const at = performance.now();
    const total = committed.reduce((sum, { offset }) => sum + Number(offset), 0);
    const pid = child.pid as number;
    if (start === undefined && total > 0) start = { at, cpuMs: processCpuMs(pid), mainCpuMs: processCpuMs(pid, true), brokerCpuMs: processCpuMs(brokerPid), committed: total };
    if (total >= N) end = { at, cpuMs: processCpuMs(pid), mainCpuMs: processCpuMs(pid, true), brokerCpuMs: processCpuMs(brokerPid) };
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await admin.disconnect();
  const exitCode = await exited;
  if (end === undefined || start === undefined || exitCode !== 0) throw new Error(`vbstream run did not finish (exit ${exitCode}): ${stderr}`);
  const perN = N / (N - start.committed);
  return { label: `${cli === vbstreamCli ? '' : 'baseline '}${minibatch === undefined ? 'vbstream run' : `run, mb ${minibatch}`}`, rate: ((N - start.committed) / (end.at - start.at)) * 1000, cpuMs: (end.cpuMs - start.cpuMs) * perN, mainCpuMs: (end.mainCpuMs - start.mainCpuMs) * perN, brokerCpuMs: (end.brokerCpuMs - start.brokerCpuMs) * perN };
}

/** The machine's cores (what four partitions can use at most, with the broker beside them). */
const CORES = availableParallelism();

/** The rate the cores allow a run when it and the broker share them and nothing else runs: cores / (its CPU + the broker's, per record), records/s. */
const ceiling = (run: Figures): number => (CORES * 1000 * N) / (run.cpuMs + run.brokerCpuMs);

/** The bare loop's ceiling: one thread beside the broker, the lesser of one core / its CPU and the cores / (its CPU + the broker's), per record, records/s. */
const bareCeiling = (bare: Figures): number => Math.min((1000 * N) / bare.cpuMs, ceiling(bare));

const line = (f: Figures, base?: Figures): string =>
  `    ${f.label.padEnd(21)} ${formatCount(f.rate).padStart(9)} records/s  ${((f.cpuMs * 1000) / N).toFixed(2).padStart(6)} CPU ms per 1,000 records${f.mainCpuMs === undefined ? '' : ` (main thread ${((f.mainCpuMs * 1000) / N).toFixed(2)})`}${base === undefined ? '' : `  ${(f.rate / base.rate).toFixed(2)}× the bare loop`}  broker ${((f.brokerCpuMs * 1000) / N).toFixed(2)} CPU ms per 1,000 records\n`;

/** A four-partition run's ceiling on this machine's cores, over the bare loop's rate. */
const ceilingLine = (run: Figures, bare: Figures): string =>
  `      ceiling of the ${run.label} on ${CORES} cores: ${formatCount(ceiling(run))} records/s, ${(ceiling(run) / bare.rate).toFixed(2)}× the bare loop (${CORES} cores / (its ${((run.cpuMs * 1000) / N).toFixed(2)} + the broker's ${((run.brokerCpuMs * 1000) / N).toFixed(2)} CPU ms per 1,000 records)), ${(ceiling(run) / bareCeiling(bare)).toFixed(2)}× the bare loop's own ceiling (${formatCount(bareCeiling(bare))} records/s)\n`;

const broker = await startLocalKafka();
const dir = mkdtempSync(join(tmpdir(), 'vbstream-kafka-runtime-'));
try {
  const port = createKafkaPort({ brokers: [broker.bootstrap], logLevel: 'nothing' });
  process.stdout.write(`broker: Apache Kafka (KRaft, single node) at ${broker.bootstrap}; client platformatic (the default); ${formatCount(N)} JSON records (p = ${D}) per topic; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  const summary: string[] = [];
  for (const partitions of PARTITION_COUNTS) {
    const topic = `runtime-${partitions}p-${Date.now()}`;
    produceTopic(broker.bootstrap, topic, partitions);
    for (const family of FAMILIES) {
      for (let repeat = 1; repeat <= REPEATS; repeat++) {
        const tag = `${family}-${repeat}`;
        const consumed = await consumeTopic(port, topic, N, { groupId: `${topic}-plain-${tag}`, maxBytesPerPartition: FETCH_BYTES, watchPid: broker.pid });
        const plain: Figures = { label: 'plain consume', ...consumed, brokerCpuMs: consumed.watchedCpuMs ?? 0 };
        const bare = await bareLoop(port, topic, family, tag, broker.pid);
        const runs: Figures[] = [];
        for (const minibatch of MINIBATCHES) {
          const size = minibatch === undefined ? '' : `-mb${minibatch}`;
          if (BASELINE_CLI !== undefined) runs.push(await vbstreamRun(port, broker.bootstrap, broker.pid, topic, partitions, family, `${tag}${size}-baseline`, dir, minibatch, BASELINE_CLI));
          runs.push(await vbstreamRun(port, broker.bootstrap, broker.pid, topic, partitions, family, `${tag}${size}`, dir, minibatch));
        }
        process.stdout.write(`  ${family}, ${partitions} partition${partitions === 1 ? '' : 's'}, run ${repeat} of ${REPEATS} (load average ${loadavg()[0].toFixed(2)}):\n${line(plain, bare)}${line(bare)}${runs.map((run) => line(run, bare)).join('')}${partitions === 4 ? runs.map((run) => ceilingLine(run, bare)).join('') : ''}`);
        const target = TARGETS[partitions];
        for (const run of runs) summary.push(`${family.padEnd(16)} ${String(partitions).padStart(2)}  run ${repeat}: ${run.label} ${(run.rate / bare.rate).toFixed(2)}× the bare loop${target === undefined ? '' : ` (target ≥ ${target}×)`}, ${(run.rate / plain.rate).toFixed(2)}× plain consume; bare loop ${(bare.rate / plain.rate).toFixed(2)}× plain consume${partitions === 4 ? `; ceiling ${(ceiling(run) / bare.rate).toFixed(2)}× the bare loop, ${(ceiling(run) / bareCeiling(bare)).toFixed(2)}× its ceiling` : ''}`);
      }
    }
  }
  process.stdout.write(`\nfamily         partitions\n${summary.join('\n')}\nload average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await broker.stop();
}
