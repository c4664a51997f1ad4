import { parentPort } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { ModelMonitor } from '../../monitoring/model-monitor.js';
import { WorkerMetricsReporter } from '../../monitoring/worker-metrics-reporter.js';
import type { Batch } from '../../src/core/batch.js';
import { ConfigError } from '../../src/core/config-error.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { getFamily } from '../../src/registry.js';
import { applyBatch } from '../apply-batch.js';
import type { LearnOutcome } from '../learn-outcome.js';
import { EncodedValues } from './encoded-values.js';
import { packSnapshot } from './packed-snapshot.js';
import { unpackSnapshot } from './unpack-snapshot.js';
import { workerDecoders, type DecoderSpec, type WorkerValueDecoder } from './worker-decoders.js';
import type { DecodedValues, PackedBatch, SerializedError, WorkerMetricsTask, WorkerReply, WorkerTask } from './worker-task.js';

/** The models this worker holds, by name (a stateful model lives in one worker for its whole life). */
const models = new Map<string, OnlineModel>();
/** Monitors of the models whose metrics were asked for; their deltas go to the main thread on `parentPort`. */
const monitors = new Map<string, ModelMonitor>();
let reporter: WorkerMetricsReporter | undefined;
/**
 * Least time between two metric posts after learn tasks, ms: a fast stream posts its deltas about
 * ten times a second instead of once per chunk (a post per chunk cost a tenth of the worker's time);
 * a snapshot task always posts what is pending, so nothing stays behind a partition's snapshot.
 */
const FLUSH_EVERY_MS = 100;
let flushedAt = Number.NEGATIVE_INFINITY;

/** Posts the pending metric deltas when `always`, or when {@link FLUSH_EVERY_MS} passed since the last post. */
function flushMetrics(always: boolean): void {
  if (reporter === undefined) return;
  const now = performance.now();
  if (!always && now - flushedAt < FLUSH_EVERY_MS) return;
  flushedAt = now;
  reporter.flush();
}
/** Value decoders made in this worker, by kind and configuration. */
const decoders = new Map<string, WorkerValueDecoder>();

function hold(name: string, model: OnlineModel, metrics: WorkerMetricsTask | undefined): void {
  models.set(name, model);
  monitors.delete(name);
  if (metrics === undefined || parentPort === null) return;
  reporter ??= new WorkerMetricsReporter(parentPort);
  monitors.set(name, new ModelMonitor(reporter.recorder(model.family, metrics.partition)));
}

function toBatch(packed: PackedBatch): Batch {
  const { x, y, n, d, weights } = packed;
  return weights === undefined ? { x, y, n, d, firstRow: 1 } : { x, y, n, d, weights, firstRow: 1 };
}

function serialize(error: unknown): SerializedError {
  if (error instanceof VbstreamError) return { kind: error.kind, reason: error.reason, location: error.location, retriable: error.retriable };
  return { kind: 'io', reason: error instanceof Error ? error.message : String(error), location: {}, retriable: false };
}

function held(name: string): OnlineModel {
  const model = models.get(name);
  if (model === undefined) throw new VbstreamError('io', `worker ${process.pid} holds no model "${name}" (was the worker restarted?)`, { field: 'model', value: name });
  return model;
}

function decoderFor(spec: DecoderSpec): WorkerValueDecoder {
  const key = `${spec.kind} ${JSON.stringify(spec.config)}`;
  let decoder = decoders.get(key);
  if (decoder === undefined) {
    const make = workerDecoders.get(spec.kind);
    if (make === undefined) throw new ConfigError(`this model worker has no value decoder "${spec.kind}" (its worker entry did not register it)`, { field: 'decoder', value: spec.kind });
    decoder = make(spec.config);
    decoders.set(key, decoder);
  }
  return decoder;
}

/** Decodes every encoded record: the good ones packed into a batch (with their rows and their indices among the encoded), the others refused with the decoder's reason. */
function decodeValues(values: EncodedValues, spec: DecoderSpec, d: number): { batch: PackedBatch; kept: Int32Array; refused: DecodedValues['refused'] } {
  const decoder = decoderFor(spec);
  const count = values.count;
  const x = new Float64Array(count * d);
  const y = new Float64Array(count);
  const weights = spec.weighted ? new Float64Array(count) : undefined;
  const rows = new Float64Array(count);
  const kept = new Int32Array(count);
  const refused: { index: number; row: number; reason: string; detail: string }[] = [];
  const ascii = decoder.decodeAscii !== undefined && values.ascii(); // the usual case: no UTF-8 check or Buffer per value
  let n = 0;
  for (let i = 0; i < count; i++) {
    const text = ascii ? values.latin1(i) : null;
    const label = text === null ? decoder.decode(values.value(i), x, n * d) : decoder.decodeAscii!(text, x, n * d);
    if (label === undefined) refused.push({ index: i, row: values.row(i), reason: decoder.failure.reason, detail: decoder.failure.detail });
    else {
      y[n] = label;
      if (weights !== undefined) weights[n] = decoder.weight;
      rows[n] = values.row(i);
      kept[n++] = i;
    }
  }
  const batch = { x: x.subarray(0, n * d), y: y.subarray(0, n), n, d, rows: rows.subarray(0, n) };
  return { batch: weights === undefined ? batch : { ...batch, weights: weights.subarray(0, n) }, kept: kept.subarray(0, n), refused };
}

/** Records `from` to `to` of a batch, as views. */
function sliceBatch(batch: PackedBatch, from: number, to: number): PackedBatch {
  const { d, weights } = batch;
  const part = { x: batch.x.subarray(from * d, to * d), y: batch.y.subarray(from, to), n: to - from, d, rows: batch.rows.subarray(from, to) };
  return weights === undefined ? part : { ...part, weights: weights.subarray(from, to) };
}

/**
 * The batch's index ranges of the good records among each `minibatch` consecutive encoded records
 * (`kept`: their indices among the `count` encoded, rising), empty ranges left out; the whole batch
 * as one range without `minibatch`.
 */
function slicesOf(kept: Int32Array, count: number, minibatch: number | undefined): [number, number][] {
  const n = kept.length;
  if (minibatch !== undefined && !(Number.isInteger(minibatch) && minibatch > 0)) throw new ConfigError('a learn-encoded minibatch must be a positive integer', { field: 'minibatch', value: minibatch });
  if (minibatch === undefined || minibatch >= count) return [[0, n]];
  const slices: [number, number][] = [];
  for (let from = 0, end = minibatch; from < n; end += minibatch) {
    let to = from;
    while (to < n && kept[to] < end) to++;
    if (to > from) slices.push([from, to]);
    from = to;
  }
  return slices;
}

/** The outcomes of consecutive slices of one batch as one: rejections and scores at their indices in the batch, records and time summed, the rest (objective, recordsSeen) the last slice's. */
function joinOutcomes(outcomes: readonly LearnOutcome[], slices: readonly (readonly [number, number])[], n: number): LearnOutcome {
  const last = outcomes[outcomes.length - 1];
  const rejected = outcomes.flatMap((outcome, k) => outcome.rejected.map(({ index, error }) => ({ index: index + slices[k][0], error })));
  const records = outcomes.reduce((sum, outcome) => sum + outcome.stats.records, 0);
  const durationMs = outcomes.reduce((sum, outcome) => sum + outcome.durationMs, 0);
  const joined = { stats: { ...last.stats, records }, recordsSeen: last.recordsSeen, rejected, durationMs };
  const first = outcomes[0].scores;
  if (first === undefined) return joined;
  const scores = { kind: first.kind, mean: new Float64Array(n), variance: new Float64Array(n), logLoss: new Float64Array(n) };
  outcomes.forEach(({ scores: part }, k) => {
    scores.mean.set(part!.mean, slices[k][0]);
    scores.variance.set(part!.variance, slices[k][0]);
    scores.logLoss.set(part!.logLoss, slices[k][0]);
  });
  return { ...joined, scores };
}

/**
 * Learns a batch with the named model, one update per slice (index ranges of the batch, each scored
 * before it is learned; by default the whole batch), recording its metrics per update when monitored;
 * `decoded` (transferred) goes with the reply.
 */
function learnBatch(name: string, batch: PackedBatch, evaluate: boolean, decoded?: DecodedValues, slices: readonly (readonly [number, number])[] = [[0, batch.n]]): unknown {
  const model = held(name);
  if (batch.n === 0 && decoded !== undefined) return { ok: true, recordsSeen: model.recordsSeen, decoded } satisfies WorkerReply;
  const monitor = monitors.get(name);
  const outcomes = slices.map(([from, to]) => {
    const part = from === 0 && to === batch.n ? batch : sliceBatch(batch, from, to);
    const outcome = applyBatch(model, toBatch(part), part.rows, evaluate);
    if (monitor !== undefined) {
      monitor.learned(model, outcome, part.y);
      monitor.recorder.workerBusy(outcome.durationMs / 1000);
    }
    return outcome;
  });
  if (monitor !== undefined) flushMetrics(false);
  const outcome = outcomes.length === 1 ? outcomes[0] : joinOutcomes(outcomes, slices, batch.n);
  const rejected = outcome.rejected.map(({ index, error }) => ({ index, error: serialize(error) }));
  const { scores } = outcome;
  const reply: WorkerReply = { ok: true, outcome: { ...outcome, rejected }, decoded };
  const buffers: ArrayBufferLike[] = decoded === undefined ? [] : [decoded.labels.buffer, decoded.rows.buffer, decoded.kept.buffer];
  if (scores !== undefined) buffers.push(scores.mean.buffer, scores.variance.buffer, scores.logLoss.buffer);
  return buffers.length === 0 ? reply : moving(reply, buffers);
}

/** Wraps a reply so that the listed buffers are transferred, not copied. */
function moving(reply: WorkerReply, buffers: ArrayBufferLike[]): unknown {
  return move({ get [transferableSymbol]() { return buffers; }, get [valueSymbol]() { return reply; } } as never);
}

function run(task: WorkerTask): unknown {
  switch (task.op) {
    case 'create': {
      const model = getFamily(task.family).create(task.dim, task.options, task.limits);
      hold(task.model, model, task.metrics);
      return { ok: true, recordsSeen: model.recordsSeen };
    }
    case 'restore': {
      const snapshot = unpackSnapshot(task.snapshot);
      const model = getFamily(snapshot.family).restore(snapshot, task.limits);
      hold(task.model, model, task.metrics);
      return { ok: true, recordsSeen: model.recordsSeen };
    }
    case 'learn':
      return learnBatch(task.model, task.batch, task.evaluate);
    case 'learn-encoded': {
      const { batch, kept, refused } = decodeValues(new EncodedValues(task.values.buffer, task.values.count), task.decoder, held(task.model).dim);
      const decoded: DecodedValues = { labels: batch.y.slice(), rows: batch.rows.slice(), kept: kept.slice(), refused };
      return learnBatch(task.model, batch, task.evaluate, decoded, slicesOf(kept, task.values.count, task.minibatch));
    }
    case 'snapshot': {
      flushMetrics(true);
      const snapshot = packSnapshot(held(task.model).snapshot());
      return moving({ ok: true, snapshot }, [snapshot.data.buffer]);
    }
    case 'drop':
      models.delete(task.model);
      monitors.delete(task.model);
      return { ok: true };
    case 'accumulate': {
      const model = getFamily(task.family).create(task.dim, task.options, task.limits);
      model.update(toBatch(task.batch));
      const snapshot = packSnapshot(model.snapshot());
      return moving({ ok: true, snapshot }, [snapshot.data.buffer]);
    }
  }
}

/**
 * The piscina task handler of the model worker (compiled to `dist/operators/worker/model-worker.js`).
 * Family-generic through the registry: a model is created from {family, dim, options, limits} or
 * restored from a packed snapshot (with its limits), then learns batches in the order they are sent — packed, or still encoded
 * (`learn-encoded`: decoded here by a decoder of {@link workerDecoders}, the refused records named
 * in the reply, and learned in one update per `minibatch` encoded records when the task gives it). Arrays travel as
 * transferred `Float64Array`s; errors come back as data (`{ ok: false }`) so their types survive.
 * A model created or restored with `metrics` is monitored here; its metric deltas are posted on
 * `parentPort` (the pool re-emits them as `'message'`) after a learn task at most every
 * {@link FLUSH_EVERY_MS} and before every snapshot.
 */
export default function modelWorker(task: WorkerTask): unknown {
  try {
    return run(task);
  } catch (error) {
    return { ok: false, error: serialize(error), stack: error instanceof Error ? error.stack : undefined } satisfies WorkerReply;
  }
}
