import { parentPort } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { ModelMonitor } from '../../monitoring/model-monitor.js';
import { WorkerMetricsReporter } from '../../monitoring/worker-metrics-reporter.js';
import type { Batch } from '../../src/core/batch.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { getFamily } from '../../src/registry.js';
import { applyBatch } from '../apply-batch.js';
import { packSnapshot } from './packed-snapshot.js';
import { unpackSnapshot } from './unpack-snapshot.js';
import type { PackedBatch, SerializedError, WorkerMetricsTask, WorkerReply, WorkerTask } from './worker-task.js';

/** The models this worker holds, by name (a stateful model lives in one worker for its whole life). */
const models = new Map<string, OnlineModel>();
/** Monitors of the models whose metrics were asked for; their deltas go to the main thread on `parentPort`. */
const monitors = new Map<string, ModelMonitor>();
let reporter: WorkerMetricsReporter | undefined;

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

/** Wraps a reply so that the listed buffers are transferred, not copied. */
function moving(reply: WorkerReply, buffers: ArrayBufferLike[]): unknown {
  return move({ get [transferableSymbol]() { return buffers; }, get [valueSymbol]() { return reply; } } as never);
}

function run(task: WorkerTask): unknown {
  switch (task.op) {
    case 'create': {
      const model = getFamily(task.family).create(task.dim, task.options);
      hold(task.model, model, task.metrics);
      return { ok: true, recordsSeen: model.recordsSeen };
    }
    case 'restore': {
      const snapshot = unpackSnapshot(task.snapshot);
      const model = getFamily(snapshot.family).restore(snapshot);
      hold(task.model, model, task.metrics);
      return { ok: true, recordsSeen: model.recordsSeen };
    }
    case 'learn': {
      const model = held(task.model);
      const outcome = applyBatch(model, toBatch(task.batch), task.batch.rows, task.evaluate);
      const monitor = monitors.get(task.model);
      if (monitor !== undefined) {
        monitor.learned(model, outcome, task.batch.y);
        monitor.recorder.workerBusy(outcome.durationMs / 1000);
        reporter!.flush();
      }
      const rejected = outcome.rejected.map(({ index, error }) => ({ index, error: serialize(error) }));
      const { scores } = outcome;
      const reply: WorkerReply = { ok: true, outcome: { ...outcome, rejected } };
      return scores === undefined ? reply : moving(reply, [scores.mean.buffer, scores.variance.buffer, scores.logLoss.buffer]);
    }
    case 'snapshot': {
      const snapshot = packSnapshot(held(task.model).snapshot());
      return moving({ ok: true, snapshot }, [snapshot.data.buffer]);
    }
    case 'drop':
      models.delete(task.model);
      monitors.delete(task.model);
      return { ok: true };
    case 'accumulate': {
      const model = getFamily(task.family).create(task.dim, task.options);
      model.update(toBatch(task.batch));
      const snapshot = packSnapshot(model.snapshot());
      return moving({ ok: true, snapshot }, [snapshot.data.buffer]);
    }
  }
}

/**
 * The piscina task handler of the model worker (compiled to `dist/operators/worker/model-worker.js`).
 * Family-generic through the registry: a model is created from {family, dim, options} or restored
 * from a packed snapshot, then learns batches in the order they are sent. Arrays travel as
 * transferred `Float64Array`s; errors come back as data (`{ ok: false }`) so their types survive.
 * A model created or restored with `metrics` is monitored here, and each learn task ends by posting
 * its metric deltas on `parentPort` (the pool re-emits them as `'message'`).
 */
export default function modelWorker(task: WorkerTask): unknown {
  try {
    return run(task);
  } catch (error) {
    return { ok: false, error: serialize(error), stack: error instanceof Error ? error.stack : undefined } satisfies WorkerReply;
  }
}
