import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createKafkaPort } from '../connectors/kafka/create-kafka-port.js';
import { PipelineMetrics } from '../monitoring/pipeline-metrics.js';
import { getFamily } from '../src/registry.js';
import { KafkaPredictionLog } from '../serve/kafka-prediction-log.js';
import { MemoryPosteriorSource } from '../serve/memory-posterior-source.js';
import { ScoringService } from '../serve/scoring-service.js';
import { startLocalKafka } from '../scripts/local-kafka.js';
import { formatCount } from './measure.js';
import { syntheticLogistic } from './synthetic-logistic.js';

/**
 * The scoring service under real HTTP load on 127.0.0.1, against `ScoringService` serving adf-logit
 * with d = 10 (in this process) and, in the same run, against a bare `node:http` server that answers
 * a fixed JSON body (the limit of the stack on this machine). The load generators run in processes
 * of their own, so generator and server never share an event loop:
 * - the most single-row requests/s: autocannon (npm), 50 connections, closed loop; the best of 3
 *   runs alternating with the bare server's;
 * - latency at 50% of that rate: `paced-load.js` (open loop: requests due at evenly spaced times over
 *   50 keep-alive connections; autocannon's `-R` sends each second's quota in a burst at full speed,
 *   which measures the latency of the full load, not of half of it), for the service and the bare
 *   server alike, with how late the generator's writes were (so a generator that cannot keep up
 *   shows);
 * - batch rows/s at 100 rows per request (autocannon); the failed requests of a 50% load (paced)
 *   during which 10 posteriors are hot-swapped;
 * - the same with every prediction logged to Kafka through each client (a broker the bench starts;
 *   skipped with a message when Java or the broker's jars are missing).
 * With each run it prints the CPU time the server (this process) spent per request answered and the
 * CPU the generator used (% of one core), each against its target. `SERVE_BENCH_SECONDS` sets each
 * run's length (default 5); `SERVE_BENCH_PRODUCERS` the sizes of the prediction log's pool of
 * producers to measure, each in turn for each client (default `1,2`: one producer, as before the
 * pool, and the default); `SERVE_BENCH_LOGGED=0` skips the logged runs (and the broker).
 *
 * Server, generator (and the broker) share the machine's cores, so at 50% load the latency also
 * measures their contention. With `taskset` and at least 2 CPUs (unless `SERVE_BENCH_PIN=0`), each
 * 50% load is measured a second time, pinned: the server (this process, all its threads) on CPU 0,
 * the generator on CPU 1, then both unpinned again; both figures are printed. Other processes of
 * the machine are not pinned and may still run on either CPU.
 */
const D = 10;
const SECONDS = Number(process.env.SERVE_BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const PRODUCERS = (process.env.SERVE_BENCH_PRODUCERS ?? `1,${KafkaPredictionLog.PRODUCERS}`).split(',').map(Number);
const autocannon = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));
const pacedLoad = fileURLToPath(new URL('./paced-load.js', import.meta.url));
/** Makes a child process print the CPU it used on its last stderr line as it exits. */
/** The CPUs of the pinned 50% load runs (server, generator), when `taskset` and 2 CPUs are there. */
const PIN = process.env.SERVE_BENCH_PIN !== '0' && availableParallelism() >= 2 && spawnSync('taskset', ['-p', String(process.pid)]).status === 0 ? { server: '0', generator: '1', all: `0-${availableParallelism() - 1}` } : undefined;
const REPORT_CPU = 'data:text/javascript,process.on("exit",()=>{const c=process.cpuUsage();process.stderr.write("\\ncpu-ms "+(c.user+c.system)/1000+"\\n")})';

interface Load {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly failed: number;
  readonly requests: number;
  /** CPU of the server (this process) per request answered, ms. */
  readonly serverCpuMs: number;
  /** CPU of the load generator, % of one core over the run. */
  readonly generatorCpu: number;
  /** How late the paced generator's writes were against their due times, p99, ms (undefined for autocannon). */
  readonly lagP99?: number;
}

/** Runs `node args` (a load generator; on `cpus` when given), returning its stdout and the CPU it used (ms), with the CPU this process used meanwhile (ms) and the wall time (s). */
function generate(args: readonly string[], cpus?: string): Promise<{ out: string; generatorCpuMs: number; serverCpuMs: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const node = [process.execPath, '--import', REPORT_CPU, ...args];
    const child = cpus === undefined ? spawn(node[0], node.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn('taskset', ['-c', cpus, ...node], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { err += chunk.toString(); });
    child.once('exit', (code) => {
      const used = process.cpuUsage(cpu);
      if (code !== 0) return reject(new Error(`${args[0]} exited ${code}: ${err}`));
      const generatorCpuMs = Number(/cpu-ms ([\d.]+)\s*$/.exec(err)?.[1] ?? NaN);
      resolve({ out, generatorCpuMs, serverCpuMs: (used.user + used.system) / 1000, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** The most requests/s against `url` (POST `body`): one autocannon run, closed loop. */
async function load(url: string, body: string): Promise<Load> {
  const { out, generatorCpuMs, serverCpuMs, seconds } = await generate([autocannon, '-j', '-c', String(CONNECTIONS), '-d', String(SECONDS), '-m', 'POST', '-H', 'content-type=application/json', '-b', body, url]);
  const result = JSON.parse(out) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number };
  return {
    requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failed: result.non2xx + result.errors + result.timeouts, requests: result.requests.total,
    serverCpuMs: serverCpuMs / result.requests.total, generatorCpu: (100 * generatorCpuMs) / 1000 / seconds,
  };
}

/** `rate` requests/s against `url` (POST `body`), paced evenly (`paced-load.js`); the generator on `cpus` when given. */
async function paced(url: string, body: string, rate: number, cpus?: string): Promise<Load> {
  const { out, generatorCpuMs, serverCpuMs, seconds } = await generate([pacedLoad, url, body, String(Math.round(rate)), String(SECONDS), String(CONNECTIONS)], cpus);
  const result = JSON.parse(out) as { requests: number; failed: number; requestsPerSecond: number; p50: number; p99: number; lagP99: number };
  return { ...result, serverCpuMs: serverCpuMs / result.requests, generatorCpu: (100 * generatorCpuMs) / 1000 / seconds };
}

/** Sets the CPUs of every thread of this process (`taskset -a -p`). */
function pinServer(cpus: string): void {
  const pinned = spawnSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { encoding: 'utf8' });
  if (pinned.status !== 0) throw new Error(`taskset -a -p -c ${cpus} ${process.pid} failed: ${pinned.stderr.trim()}`);
}

/** {@link paced} with the server pinned to one CPU and the generator to the other ({@link PIN}); undefined without `taskset` or 2 CPUs. */
async function pacedPinned(url: string, body: string, rate: number): Promise<Load | undefined> {
  if (PIN === undefined) return undefined;
  pinServer(PIN.server);
  try {
    return await paced(url, body, rate, PIN.generator);
  } finally {
    pinServer(PIN.all);
  }
}

function fitted(seed: number): ReturnType<ReturnType<typeof getFamily>['create']> {
  const n = 2000;
  const { x, y } = syntheticLogistic(n, D, seed);
  const model = getFamily('adf-logit').create(D);
  model.update({ x, y, n, d: D });
  return model;
}

const row = Array.from({ length: D }, (_, j) => (j === 0 ? 1 : Math.round(Math.sin(j) * 1000) / 1000));
const single = JSON.stringify({ x: row });
const batch = JSON.stringify({ rows: Array.from({ length: 100 }, () => row) });
const ms = (value: number): string => `${value.toFixed(2)} ms`;
const cpu = (run: Load): string => `${(run.serverCpuMs * 1000).toFixed(0)} µs/request, generator ${run.generatorCpu.toFixed(0)}% of a core`;
const pinnedHalf = (run: Load | undefined): string => (run === undefined ? 'pinned: not measured (no taskset or 1 CPU, or SERVE_BENCH_PIN=0)' : `pinned (server on CPU ${PIN!.server}, generator on CPU ${PIN!.generator}): p50 ${ms(run.p50)}, p99 ${ms(run.p99)}; ${run.failed} failed (${lag(run)})`);
const lag = (run: Load): string => `generator writes late by p99 ${ms(run.lagP99 ?? NaN)}, generator ${run.generatorCpu.toFixed(0)}% of a core`;

const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');

/** Runs of the most requests/s against each target, alternating (bare, service, bare, service, …) so that a load on the machine that comes and goes weighs on both alike; the best of each. */
const ROUNDS = 3;

const bareServer = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const body = '{"mean":0.7310585786300049,"variance":0.19661193324148185,"interval":[0.61,0.83],"level":0.9,"version":"v1","predictionId":"3f9c0a1b2c3d-17"}';
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
    response.end(body);
  });
});
await new Promise<void>((resolve) => bareServer.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/`;
await load(bareUrl, single); // warm-up
const bareMax = await load(bareUrl, single);
const bareHalf = await paced(bareUrl, single, bareMax.requestsPerSecond / 2);
const bareHalfPinned = await pacedPinned(bareUrl, single, bareMax.requestsPerSecond / 2);
process.stdout.write(`${SECONDS} s per run, adf-logit d = ${D}, 127.0.0.1, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the start; most requests/s: autocannon, ${CONNECTIONS} connections, the best of ${ROUNDS} runs alternating with the bare server's; 50% load: paced-load, open loop, ${CONNECTIONS} connections\n`);
process.stdout.write(`bare node:http (fixed JSON body): ${formatCount(bareMax.requestsPerSecond)} requests/s (server CPU ${cpu(bareMax)}); at 50% of it (${formatCount(bareHalf.requestsPerSecond)} requests/s): p50 ${ms(bareHalf.p50)}, p99 ${ms(bareHalf.p99)} (${lag(bareHalf)}); ${pinnedHalf(bareHalfPinned)}\n`);

const best = (loads: readonly Load[]): Load => loads.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));

/** Measures `service` (serving `source`'s v1) and prints its figures against the bare server's and the targets: `ratio` of the bare rate, p99 < 5 ms at 50% load, no failed request during the swaps. */
async function measureService(name: string, service: ScoringService, source: MemoryPosteriorSource, ratio: number): Promise<void> {
  const url = `http://127.0.0.1:${await service.start()}/predict`;
  await load(url, single); // warm-up
  const bareRuns: Load[] = [];
  const runs: Load[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    bareRuns.push(await load(bareUrl, single));
    runs.push(await load(url, single));
  }
  const bare = best(bareRuns);
  const max = best(runs);
  const half = await paced(url, single, max.requestsPerSecond / 2);
  const halfPinned = await pacedPinned(url, single, max.requestsPerSecond / 2);
  const rows = await load(url, batch);
  const newer = Array.from({ length: 10 }, (_, k) => fitted(k + 2)); // fitted before the load: the swaps alone run during it
  let version = 1;
  const swaps = setInterval(() => { if (version < 11) source.publish(newer[version - 1], `v${++version}`); }, (SECONDS * 1000) / 11);
  const swapped = await paced(url, single, max.requestsPerSecond / 2);
  clearInterval(swaps);
  const ratioOf = max.requestsPerSecond / bare.requestsPerSecond;
  process.stdout.write(`${name}:\n`);
  process.stdout.write(`  single row, most requests/s:        ${formatCount(max.requestsPerSecond).padStart(8)}  (${ratioOf.toFixed(2)}× the bare server's ${formatCount(bare.requestsPerSecond)}; p50 ${ms(max.p50)}, p99 ${ms(max.p99)}; ${max.failed} failed; runs ${runs.map((r) => formatCount(r.requestsPerSecond)).join(', ')} vs bare ${bareRuns.map((r) => formatCount(r.requestsPerSecond)).join(', ')})\n`);
  process.stdout.write(`    server CPU: ${cpu(max)}; bare: ${cpu(bare)}\n`);
  process.stdout.write(`  at 50% of it (${formatCount(half.requestsPerSecond)} requests/s):   p50 ${ms(half.p50)}, p99 ${ms(half.p99)}; ${half.failed} failed (server CPU ${(half.serverCpuMs * 1000).toFixed(0)} µs/request; ${lag(half)})\n`);
  process.stdout.write(`    the same, ${pinnedHalf(halfPinned)}\n`);
  process.stdout.write(`  batches of 100 rows, rows/s:        ${formatCount(rows.requestsPerSecond * 100).padStart(8)}  (${formatCount(rows.requestsPerSecond)} requests/s; p99 ${ms(rows.p99)}; ${rows.failed} failed)\n`);
  process.stdout.write(`  ${version - 1} hot swaps under 50% load:      ${swapped.failed} failed of ${formatCount(swapped.requests)} requests (versions served: ${service.posterior.swaps}); p99 ${ms(swapped.p99)}\n`);
  process.stdout.write(`  targets: ≥ ${ratio}× the bare server ${verdict(ratioOf >= ratio)}; p99 < 5 ms at 50% load ${verdict(half.p99 < 5)}${halfPinned === undefined ? '' : ` (pinned ${verdict(halfPinned.p99 < 5)})`}; no failed request during the swaps ${verdict(swapped.failed === 0)}\n`);
  await service.stop();
}

const memory = new MemoryPosteriorSource();
memory.publish(fitted(1), 'v1');
await measureService('vbstream serve (no prediction log)', new ScoringService({ source: memory, family: 'adf-logit', dim: D, port: 0, metrics: new PipelineMetrics({ pipeline: 'bench' }) }), memory, 0.7);

/** Why the local broker cannot start here (no Java; its jars neither in .kafka/libs nor fetchable), or undefined. */
function brokerUnavailable(): string | undefined {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  return java.error === undefined && java.status === 0 ? undefined : `no Java (${java.error?.message ?? java.stderr.trim()})`;
}

const missing = brokerUnavailable();
const broker = process.env.SERVE_BENCH_LOGGED === '0' ? undefined : missing === undefined ? await startLocalKafka().catch((error: Error) => error) : new Error(missing);
if (broker === undefined) {
  process.stdout.write('with prediction logging to Kafka: skipped (SERVE_BENCH_LOGGED=0)\n');
} else if (broker instanceof Error) {
  process.stdout.write(`with prediction logging to Kafka: skipped — the local broker cannot start: ${broker.message.split('\n')[0]}\n`);
} else {
  try {
    for (const client of ['platformatic', 'kafkajs'] as const) {
      const port = createKafkaPort({ brokers: [broker.bootstrap], logLevel: 'nothing', client });
      for (const producers of PRODUCERS) {
        const log = await KafkaPredictionLog.start(port, { predictionsTopic: `bench.predictions.${client}.${producers}`, partitions: 4, producers });
        const logged = new MemoryPosteriorSource();
        logged.publish(fitted(1), 'v1');
        await measureService(`vbstream serve, every prediction logged to Kafka (acks = all, local broker, --kafka-client ${client}, --log-producers ${producers})`, new ScoringService({ source: logged, family: 'adf-logit', dim: D, port: 0, log, metrics: new PipelineMetrics({ pipeline: 'bench' }) }), logged, 0.5);
      }
    }
  } finally {
    await broker.stop();
  }
}
bareServer.close();
