import type { EventEmitter } from 'node:events';
import { Piscina } from 'piscina';
import type { Batch } from '../../src/core/batch.js';
import type { InputLimits } from '../../src/core/input-limits.js';
import type { JsonValue, ModelSnapshot } from '../../src/core/model-snapshot.js';
import { typedError } from '../typed-error.js';
import type { LearnOutcome } from '../learn-outcome.js';
import { LEARN_WINDOW } from '../learn-window.js';
import type { EncodedLearnOutcome, Learner } from '../learner.js';
import type { EncodedValues } from './encoded-values.js';
import { modelWorkerPath } from './model-worker-path.js';
import { packBatch } from './pack-batch.js';
import { packSnapshot } from './packed-snapshot.js';
import { reviveReply } from './revive-reply.js';
import { unpackSnapshot } from './unpack-snapshot.js';
import type { DecoderSpec } from './worker-decoders.js';
import type { SerializedOutcome, WorkerMetricsTask, WorkerTask } from './worker-task.js';

let models = 0;

/**
 * Tasks handed to the worker thread before it answers the first of them: `learn`'s window of calls
 * and as many snapshot tasks behind them. Its handler is synchronous, so it still runs
 * them one at a time, in the order sent (each to the end before the next starts); the pool's queue
 * holds any more.
 */
const TASKS_IN_WORKER = 2 * LEARN_WINDOW;

/** Options of the worker that holds a model. */
export interface WorkerLearnerOptions {
  /** Record the model's metrics in the worker and post them as deltas on {@link WorkerLearner.messages}. */
  readonly metrics?: WorkerMetricsTask;
  /** The worker's entry module, relative to the package root (see `modelWorkerPath`): one that registers value decoders for {@link WorkerLearner.learnEncoded}; default the model worker. */
  readonly entry?: string;
  /** The model's input limits (`maxAbsInput`), created or restored: not part of a snapshot. */
  readonly limits?: InputLimits;
}

function reviveOutcome(outcome: SerializedOutcome): LearnOutcome {
  return { ...outcome, rejected: outcome.rejected.map(({ index, error }) => ({ index, error: typedError(error.kind, error.reason, error.location, error.retriable) })) };
}

/**
 * A stateful model living in its own worker thread (a one-thread piscina pool: affinity, and
 * updates applied in the order they are sent). Batches go over as transferred `Float64Array`s
 * (the caller's arrays are detached when they span their buffers), snapshots come back the same
 * way, and typed errors keep their class; with a decoding `entry`, encoded records (Kafka values)
 * go over as one transferred buffer and are decoded in the worker. `close()` ends the thread.
 */
export class WorkerLearner implements Learner {
  private seen: number;

  private constructor(private readonly pool: Piscina, private readonly name: string, readonly family: string, readonly dim: number, recordsSeen: number) {
    this.seen = recordsSeen;
  }

  private static async start(task: (name: string) => WorkerTask, transferList: ArrayBuffer[], family: string, dim: number, entry: string | undefined): Promise<WorkerLearner> {
    // stricterFIFO: without it piscina re-queues a task it could not hand over at the tail, reordering queued updates.
    // TASKS_IN_WORKER: queued tasks wait in the worker's own port, so it goes from one to the next without a round trip through this thread.
    const pool = new Piscina({ filename: modelWorkerPath(entry), minThreads: 1, maxThreads: 1, concurrentTasksPerWorker: TASKS_IN_WORKER, stricterFIFO: true, recordTiming: false });
    const name = `model-${process.pid}-${++models}`;
    try {
      const reply = reviveReply(await pool.run(task(name), { transferList }));
      return new WorkerLearner(pool, name, family, dim, reply.recordsSeen ?? 0);
    } catch (error) {
      await pool.destroy();
      throw error;
    }
  }

  /** A fresh model of `family` in a new worker; invalid options reject with the family's `ConfigError`. */
  static create(family: string, dim: number, options?: { readonly [key: string]: JsonValue }, worker: WorkerLearnerOptions = {}): Promise<WorkerLearner> {
    return WorkerLearner.start((model) => ({ op: 'create', model, family, dim, options, limits: worker.limits, metrics: worker.metrics }), [], family, dim, worker.entry);
  }

  /** A model restored from a snapshot in a new worker; a foreign or malformed snapshot rejects with `SnapshotError`. */
  static restore(snapshot: ModelSnapshot, worker: WorkerLearnerOptions = {}): Promise<WorkerLearner> {
    const packed = packSnapshot(snapshot);
    return WorkerLearner.start((model) => ({ op: 'restore', model, snapshot: packed, limits: worker.limits, metrics: worker.metrics }), [packed.data.buffer as ArrayBuffer], snapshot.family, snapshot.dim, worker.entry);
  }

  get recordsSeen(): number {
    return this.seen;
  }

  /** Emits `'message'` for what the worker posts besides replies: its metric deltas (`PipelineMetrics.attach(learner.messages)`). */
  get messages(): EventEmitter {
    return this.pool;
  }

  async learn(batch: Batch, rows: Float64Array, evaluate: boolean): Promise<LearnOutcome> {
    const { packed, transferList } = packBatch(batch, rows);
    const { outcome } = reviveReply(await this.pool.run({ op: 'learn', model: this.name, batch: packed, evaluate } satisfies WorkerTask, { transferList }));
    this.seen = outcome!.recordsSeen;
    return reviveOutcome(outcome!);
  }

  /** Sends encoded records (their buffer transferred, `values` unusable after) to be decoded by `decoder` in the worker and learned there, in one update per `minibatch` of them when given. */
  async learnEncoded(values: EncodedValues, decoder: DecoderSpec, evaluate: boolean, minibatch?: number): Promise<EncodedLearnOutcome> {
    const task: WorkerTask = { op: 'learn-encoded', model: this.name, values: { buffer: values.buffer, count: values.count }, decoder, evaluate, ...(minibatch === undefined ? {} : { minibatch }) };
    const reply = reviveReply(await this.pool.run(task, { transferList: [values.buffer] }));
    const decoded = reply.decoded!;
    if (reply.outcome === undefined) return { ...decoded, outcome: undefined };
    this.seen = reply.outcome.recordsSeen;
    return { ...decoded, outcome: reviveOutcome(reply.outcome) };
  }

  async snapshot(): Promise<ModelSnapshot> {
    const { snapshot } = reviveReply(await this.pool.run({ op: 'snapshot', model: this.name } satisfies WorkerTask));
    return unpackSnapshot(snapshot!);
  }

  /** Waits for queued work, then ends the worker thread. */
  async close(): Promise<void> {
    await this.pool.close();
  }
}
