import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { valueSymbol } from 'piscina';
import { SyntheticGenerator } from '../connectors/file/synthetic-generator.js';
import { EncodedValues } from '../operators/worker/encoded-values.js';
import type { WorkerTask } from '../operators/worker/worker-task.js';

/**
 * The Kafka partition worker's own CPU per record, without a broker (issue 28, item 8, the worker
 * side): the decoding model worker's handler (`connectors/kafka/decoding-model-worker.js`) called
 * in a worker thread, as `vbstream run` drives it, with N synthetic logistic records
 * `{"x":[…],"y":…}` (p = 10, as `vbstream kafka:produce --synthetic` writes them) packed in
 * messages of 1,024 records, learned in minibatches of 256 with prequential scores and metrics
 * (posted to this thread), a snapshot every 10,000 records. Prints the CPU µs per record (the
 * process's: this thread only receives the metric posts) of each repeat.
 * `WORKER_COST_BASELINE=<another build's dist>` runs that build's handler too, alternating with this
 * one's in the same thread, prints the ratio and checks that both gave the same scores, labels,
 * rows and final snapshot (a hash of their bytes). `WORKER_COST_RECORDS` (default 200,000),
 * `WORKER_COST_REPEATS` (5), `WORKER_COST_FAMILIES` (adf-logit,vb-logit-online).
 */
const N = Number(process.env.WORKER_COST_RECORDS ?? 200_000);
const REPEATS = Number(process.env.WORKER_COST_REPEATS ?? 5);
const FAMILIES = (process.env.WORKER_COST_FAMILIES ?? 'adf-logit,vb-logit-online').split(',');
const BASELINE = process.env.WORKER_COST_BASELINE;
const D = 10;
const MESSAGE = 1024;
const MINIBATCH = 256;
const SNAPSHOT_EVERY = 10_000;

type Handler = (task: WorkerTask) => unknown;
interface Measured { readonly cpuUsPerRecord: number; readonly digest: string }

/** The values of the records, as the producer writes them. */
function records(): Buffer[] {
  const generator = new SyntheticGenerator({ kind: 'logistic', dim: D, seed: 1 });
  const x = new Float64Array(D);
  return Array.from({ length: N }, () => {
    const y = generator.next(x);
    return Buffer.from(JSON.stringify({ x: Array.from(x), y }));
  });
}

/** The reply's value when it is wrapped for a transfer (piscina's `move`). */
function unwrap(reply: unknown): { ok: boolean; outcome?: { scores?: { mean: Float64Array; variance: Float64Array; logLoss: Float64Array } }; decoded?: { labels: Float64Array; rows: Float64Array }; snapshot?: { data: Uint8Array } } {
  return (valueSymbol in (reply as object) ? (reply as Record<symbol, unknown>)[valueSymbol] : reply) as ReturnType<typeof unwrap>;
}

/** Learns every record with `handler`'s model of `family`: CPU µs per record, and a digest of every score, label, row and the final snapshot. */
function measure(handler: Handler, family: string, values: readonly Buffer[], tag: string): Measured {
  const model = `${family}-${tag}`;
  const schema = { dim: D, task: 'binary' };
  const messages = [] as EncodedValues[];
  for (let from = 0; from < values.length; from += MESSAGE) {
    const count = Math.min(MESSAGE, values.length - from);
    messages.push(EncodedValues.pack(count, (i) => values[from + i], (i) => from + i + 1));
  }
  const hash = createHash('sha256');
  const check = (reply: unknown): ReturnType<typeof unwrap> => {
    const value = unwrap(reply);
    if (!value.ok) throw new Error(`worker refused a task: ${JSON.stringify(value)}`);
    return value;
  };
  check(handler({ op: 'create', model, family, dim: D, metrics: { partition: '0' } }));
  const start = process.cpuUsage();
  let sinceSnapshot = 0;
  for (const values of messages) {
    const reply = check(handler({ op: 'learn-encoded', model, values: { buffer: values.buffer, count: values.count }, decoder: { kind: 'kafka-json', config: schema, weighted: false }, evaluate: true, minibatch: MINIBATCH }));
    const scores = reply.outcome?.scores;
    if (scores !== undefined) for (const array of [scores.mean, scores.variance, scores.logLoss]) hash.update(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    if (reply.decoded !== undefined) for (const array of [reply.decoded.labels, reply.decoded.rows]) hash.update(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    sinceSnapshot += values.count;
    if (sinceSnapshot >= SNAPSHOT_EVERY) {
      sinceSnapshot = 0;
      check(handler({ op: 'snapshot', model }));
    }
  }
  const used = process.cpuUsage(start);
  const snapshot = check(handler({ op: 'snapshot', model })).snapshot;
  if (snapshot !== undefined) hash.update(snapshot.data);
  handler({ op: 'drop', model });
  return { cpuUsPerRecord: (used.user + used.system) / values.length, digest: hash.digest('hex').slice(0, 16) };
}

async function inWorker(): Promise<void> {
  const builds: [string, Handler][] = [['this build', (await import('../connectors/kafka/decoding-model-worker.js')).default as Handler]];
  if (BASELINE !== undefined) builds.unshift(['baseline', (await import(`${BASELINE}/connectors/kafka/decoding-model-worker.js`)).default as Handler]);
  const values = records();
  for (const family of FAMILIES) {
    const figures = new Map<string, number[]>(builds.map(([name]) => [name, []]));
    const digests = new Set<string>();
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      for (const [name, handler] of builds) {
        const { cpuUsPerRecord, digest } = measure(handler, family, values, `${name}-${repeat}`);
        figures.get(name)!.push(cpuUsPerRecord);
        digests.add(digest);
      }
    }
    parentPort!.postMessage({ family, figures: [...figures], digests: [...digests] });
  }
}

if (isMainThread) {
  console.log(`worker CPU per record, ${N} records of p = ${D}, messages of ${MESSAGE}, minibatches of ${MINIBATCH}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const worker = new Worker(fileURLToPath(import.meta.url));
  worker.on('message', (message: { family?: string; figures?: [string, number[]][]; digests?: string[] }) => {
    if (message.family === undefined) return; // the models' metric deltas
    const { family, figures, digests } = message as { family: string; figures: [string, number[]][]; digests: string[] };
    const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    console.log(`${family}:`);
    for (const [name, list] of figures) console.log(`  ${name.padEnd(10)} µs/record ${list.map((v) => v.toFixed(2)).join(' ')} (median ${median(list).toFixed(2)})`);
    if (figures.length === 2) {
      const ratios = figures[1][1].map((v, i) => v / figures[0][1][i]);
      console.log(`  this / baseline per repeat ${ratios.map((r) => r.toFixed(3)).join(' ')}; results ${digests.length === 1 ? 'identical' : `DIFFER (${digests.join(', ')})`}`);
    }
  });
  worker.on('exit', () => console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`));
} else await inWorker();
