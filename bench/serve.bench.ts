import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
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
 * The scoring service under a real HTTP load generator: autocannon (npm), in a child process, on
 * 127.0.0.1, against `ScoringService` serving adf-logit with d = 10 (in this process) and, in the same
 * run, against a bare `node:http` server that answers a fixed JSON body (the limit of the stack on
 * this machine). Prints the most single-row requests/s (each generator at 50 connections; the best of
 * 3 runs alternating with the bare server's), p50/p99 latency at 50% of that rate, batch rows/s at
 * 100 rows per request, the failed requests of a load during which 10 posteriors are hot-swapped,
 * and the same with every prediction logged to Kafka through each client (a broker the bench starts;
 * skipped with a message when Java or the broker's jars are missing), each
 * against its target. `SERVE_BENCH_SECONDS` sets each run's length (default 5).
 */
const D = 10;
const SECONDS = Number(process.env.SERVE_BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const autocannon = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));

interface Load {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly failed: number;
  readonly requests: number;
}

/** One autocannon run against `url` (POST `body`), at most `rate` requests/s when given. */
function load(url: string, body: string, rate?: number): Promise<Load> {
  const args = [autocannon, '-j', '-c', String(CONNECTIONS), '-d', String(SECONDS), '-m', 'POST', '-H', 'content-type=application/json', '-b', body, ...(rate === undefined ? [] : ['-R', String(Math.round(rate))]), url];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { err += chunk.toString(); });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      const result = JSON.parse(out) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; timeouts: number };
      resolve({ requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failed: result.non2xx + result.errors + result.timeouts, requests: result.requests.total });
    });
  });
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
const bareHalf = await load(bareUrl, single, (await load(bareUrl, single)).requestsPerSecond / 2);
process.stdout.write(`autocannon ${CONNECTIONS} connections, ${SECONDS} s per run, adf-logit d = ${D}, 127.0.0.1; most requests/s: the best of ${ROUNDS} runs alternating with the bare server's\n`);
process.stdout.write(`bare node:http (fixed JSON body) at 50% of its rate: p50 ${ms(bareHalf.p50)}, p99 ${ms(bareHalf.p99)}\n`);

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
  const half = await load(url, single, max.requestsPerSecond / 2);
  const rows = await load(url, batch);
  const newer = Array.from({ length: 10 }, (_, k) => fitted(k + 2)); // fitted before the load: the swaps alone run during it
  let version = 1;
  const swaps = setInterval(() => { if (version < 11) source.publish(newer[version - 1], `v${++version}`); }, (SECONDS * 1000) / 11);
  const swapped = await load(url, single, max.requestsPerSecond / 2);
  clearInterval(swaps);
  const ratioOf = max.requestsPerSecond / bare.requestsPerSecond;
  process.stdout.write(`${name}:\n`);
  process.stdout.write(`  single row, most requests/s:        ${formatCount(max.requestsPerSecond).padStart(8)}  (${ratioOf.toFixed(2)}× the bare server's ${formatCount(bare.requestsPerSecond)}; p50 ${ms(max.p50)}, p99 ${ms(max.p99)}; ${max.failed} failed; runs ${runs.map((r) => formatCount(r.requestsPerSecond)).join(', ')} vs bare ${bareRuns.map((r) => formatCount(r.requestsPerSecond)).join(', ')})\n`);
  process.stdout.write(`  at 50% of it (${formatCount(half.requestsPerSecond)} requests/s):   p50 ${ms(half.p50)}, p99 ${ms(half.p99)}; ${half.failed} failed\n`);
  process.stdout.write(`  batches of 100 rows, rows/s:        ${formatCount(rows.requestsPerSecond * 100).padStart(8)}  (${formatCount(rows.requestsPerSecond)} requests/s; p99 ${ms(rows.p99)}; ${rows.failed} failed)\n`);
  process.stdout.write(`  ${version - 1} hot swaps under 50% load:      ${swapped.failed} failed of ${formatCount(swapped.requests)} requests (versions served: ${service.posterior.swaps}); p99 ${ms(swapped.p99)}\n`);
  process.stdout.write(`  targets: ≥ ${ratio}× the bare server ${verdict(ratioOf >= ratio)}; p99 < 5 ms at 50% load ${verdict(half.p99 < 5)}; no failed request during the swaps ${verdict(swapped.failed === 0)}\n`);
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
const broker = missing === undefined ? await startLocalKafka().catch((error: Error) => error) : new Error(missing);
if (broker instanceof Error) {
  process.stdout.write(`with prediction logging to Kafka: skipped — the local broker cannot start: ${broker.message.split('\n')[0]}\n`);
} else {
  try {
    for (const client of ['platformatic', 'kafkajs'] as const) {
      const port = createKafkaPort({ brokers: [broker.bootstrap], logLevel: 'nothing', client });
      const log = await KafkaPredictionLog.start(port, { predictionsTopic: `bench.predictions.${client}`, partitions: 4 });
      const logged = new MemoryPosteriorSource();
      logged.publish(fitted(1), 'v1');
      await measureService(`vbstream serve, every prediction logged to Kafka (acks = all, local broker, --kafka-client ${client})`, new ScoringService({ source: logged, family: 'adf-logit', dim: D, port: 0, log, metrics: new PipelineMetrics({ pipeline: 'bench' }) }), logged, 0.5);
    }
  } finally {
    await broker.stop();
  }
}
bareServer.close();
