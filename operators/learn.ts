import { Observable, type OperatorFunction } from 'rxjs';
import type { Batch } from '../src/core/batch.js';
import type { OnlineModel } from '../src/core/online-model.js';
import { ConfigError } from '../src/core/config-error.js';
import { InputError } from '../src/core/input-error.js';
import { ShapeError } from '../src/core/shape-error.js';
import type { BackpressureValve } from './backpressure-valve.js';
import type { BadRecordSink } from './bad-record.js';
import type { EncodedChunk } from './encoded-chunk.js';
import { InProcessLearner } from './in-process-learner.js';
import type { LabelledRecord } from './labelled-record.js';
import { LEARN_WINDOW } from './learn-window.js';
import type { LearnOutcome } from './learn-outcome.js';
import type { Learner } from './learner.js';
import { packRecords } from './pack-records.js';
import type { RecordChunk } from './record-chunk.js';
import type { SnapshotCapture } from './snapshot-capture.js';
import type { UpdateEvent } from './update-event.js';

/** Options of {@link learn}. */
export interface LearnOptions {
  /** Score each record against the model before learning it (for `prequential()`). */
  readonly evaluate?: boolean;
  /** Receives refused records with the reason; without it they are only counted. */
  readonly badRecords?: BadRecordSink;
  /** The bounded queue that pauses and resumes the source. */
  readonly valve?: BackpressureValve;
}

/** What `learn` accepts: a record, an array of records (a minibatch), a pre-packed chunk, or an encoded chunk (for a learner that decodes). */
export type LearnInput = LabelledRecord | readonly LabelledRecord[] | RecordChunk | EncodedChunk;

function isLearner(model: OnlineModel | Learner): model is Learner {
  return typeof (model as Learner).learn === 'function';
}

function isChunk(item: LearnInput): item is RecordChunk {
  return (item as RecordChunk).kind === 'chunk';
}

function isEncoded(item: LearnInput): item is EncodedChunk {
  return (item as EncodedChunk).kind === 'encoded';
}

/** Makes the event of an item once its call is answered, in arrival order: refused records to the sink, the valve drained. */
type Settle = () => UpdateEvent;

/** An item handed to the learner whose event is not made yet: how to make it once answered, or why its call failed. */
interface InFlight {
  settle?: Settle;
  failure?: { readonly error: unknown };
}

/** One learn call to make: the packed batch, its rows, and how to name record i to the bad-record sink. */
interface Work {
  readonly batch: Batch | undefined;
  readonly rows: Float64Array;
  readonly describe: (index: number) => unknown;
  readonly offered: number;
  readonly rejectedBefore: number;
  readonly arrived: number;
}

/**
 * Feeds records, minibatches (arrays of records) or pre-packed chunks to a model in arrival order
 * and emits an {@link UpdateEvent} per item, in the same order. `model` is an `OnlineModel`
 * (updated in this thread, synchronously) or a {@link Learner} such as a `WorkerLearner`, which is
 * handed each item as it arrives while fewer than {@link LEARN_WINDOW} calls are unanswered (so a
 * worker goes from one chunk to the next without waiting for this thread); the items past that wait
 * here, counted by `valve`, until answers make room. A record of the wrong width or one the model
 * refuses goes to `badRecords` and the stream carries on with the model untouched by it; any other
 * error errors the stream (in its turn; the calls handed on after it are not waited for). Each
 * event's `capture()` pairs the model's state with the positions of exactly the batches handed to
 * the learner before it (at most the window ahead of the answers), so a snapshot taken on a timer
 * while a worker lags is never ahead of its positions and never waits for more than the window;
 * `capture(true)` also covers the items still waiting here, and is taken once they are handed on.
 */
export function learn(model: OnlineModel | Learner, options: LearnOptions = {}): OperatorFunction<LearnInput, UpdateEvent> {
  const learner: Learner = isLearner(model) ? model : new InProcessLearner(model);
  const { evaluate = false, badRecords, valve } = options;
  return (source) => new Observable<UpdateEvent>((subscriber) => {
    const positions: { [source: string]: number } = {};
    // What the learner has been sent (positions, calls) and what it has answered: a capture pairs a
    // snapshot with the positions and record count after exactly the calls issued before it.
    let issued: { readonly [source: string]: number } = {};
    let calls = 0;
    // Items received, items handed to the learner, events made (one per item, in order), and the
    // items handed when the last capture was taken.
    let received = 0;
    let handed = 0;
    let made = 0;
    let captured = 0;
    let answered = { calls: 0, recordsSeen: learner.recordsSeen };
    const awaited = new Map<number, ((recordsSeen: number) => void)[]>();
    const answer = (call: number, recordsSeen: number): void => {
      answered = { calls: call, recordsSeen };
      for (const resolve of awaited.get(call) ?? []) resolve(recordsSeen);
      awaited.delete(call);
    };
    const captureHanded = (): SnapshotCapture | Promise<SnapshotCapture> => {
      const at = issued;
      const call = calls;
      captured = Math.max(captured, handed);
      const state = learner.snapshot();
      if (answered.calls === call && !(state instanceof Promise)) return { snapshot: state, positions: at, recordsSeen: answered.recordsSeen };
      const seen = answered.calls === call ? answered.recordsSeen : new Promise<number>((resolve) => {
        const list = awaited.get(call) ?? [];
        list.push(resolve);
        awaited.set(call, list);
      });
      return Promise.all([state, seen]).then(([snapshot, recordsSeen]) => ({ snapshot, positions: at, recordsSeen }));
    };
    // Captures of everything received, each taken once the items received before it are handed on.
    const behind: { readonly at: number; readonly resolve: (capture: SnapshotCapture | Promise<SnapshotCapture>) => void; readonly reject: (error: unknown) => void }[] = [];
    const capture = (all = false): SnapshotCapture | Promise<SnapshotCapture> => {
      if (!all || handed === received) return captureHanded();
      captured = Math.max(captured, received);
      return new Promise((resolve, reject) => behind.push({ at: received, resolve, reject }));
    };
    const takeBehind = (): void => {
      while (behind.length > 0 && behind[0].at <= handed) {
        const { resolve, reject } = behind.shift()!;
        try {
          resolve(captureHanded());
        } catch (error) {
          reject(error);
        }
      }
    };
    const prepare = (item: Exclude<LearnInput, EncodedChunk>, arrived: number): Work => {
      if (isChunk(item)) {
        Object.assign(positions, item.positions);
        return { batch: item.batch.n > 0 ? item.batch : undefined, rows: item.rows, describe: (i) => item.describe(i), offered: item.consumed, rejectedBefore: item.consumed - item.batch.n, arrived };
      }
      const offered = Array.isArray(item) ? (item as readonly LabelledRecord[]) : [item as LabelledRecord];
      const good: LabelledRecord[] = [];
      for (const record of offered) {
        if (record.position !== undefined) positions[record.position.source] = record.position.offset;
        if (record.x.length === learner.dim) good.push(record);
        else {
          const error = new ShapeError(`record has ${record.x.length} features but the model has ${learner.dim}`, { row: record.row, field: 'x', value: record.x.length });
          badRecords?.next({ record, reason: error.message, error });
        }
      }
      if (good.length === 0) return { batch: undefined, rows: new Float64Array(0), describe: () => undefined, offered: offered.length, rejectedBefore: offered.length, arrived };
      const { batch, rows } = packRecords(good, learner.dim);
      return { batch, rows, describe: (i) => good[i], offered: offered.length, rejectedBefore: offered.length - good.length, arrived };
    };
    /** The event of one learn call: refused records to the sink, the learned ones' labels, rows and scores. */
    const finish = (outcome: LearnOutcome | undefined, labels: Float64Array, streamRows: Float64Array, work: Omit<Work, 'batch' | 'rows'>, covered: { readonly [source: string]: number }): UpdateEvent => {
      valve?.leave(work.offered);
      let learnedLabels: Float64Array = labels;
      let learnedRows: Float64Array = streamRows;
      let scores = outcome?.scores;
      if (outcome !== undefined && outcome.rejected.length > 0) {
        const refused = new Set<number>();
        for (const { index, error } of outcome.rejected) {
          refused.add(index);
          badRecords?.next({ record: work.describe(index), reason: error.message, error });
        }
        const kept = Array.from({ length: labels.length }, (_, i) => i).filter((i) => !refused.has(i));
        const pick = (a: Float64Array): Float64Array => Float64Array.from(kept, (i) => a[i]);
        learnedLabels = pick(labels);
        learnedRows = pick(streamRows);
        if (scores !== undefined) scores = { kind: scores.kind, mean: pick(scores.mean), variance: pick(scores.variance), logLoss: pick(scores.logLoss) };
      }
      return {
        family: learner.family, capture, labels: learnedLabels, rows: learnedRows, offered: work.offered,
        rejected: work.rejectedBefore + (outcome?.rejected.length ?? 0), recordsSeen: answered.recordsSeen,
        stats: outcome?.stats ?? { records: 0 }, durationMs: outcome?.durationMs ?? 0, latencyMs: performance.now() - work.arrived,
        positions: covered, queueDepth: valve?.depth ?? 0, scores, snapshotted: ++made <= captured,
      };
    };
    /** An encoded chunk: decoded and learned where the model lives; the records its decoder refused go to the sink first, with the decoder's reason as `code`. */
    const learnEncoded = (item: EncodedChunk, arrived: number): Promise<Settle> => {
      if (learner.learnEncoded === undefined) throw new ConfigError(`the ${learner.family} learner cannot decode encoded records (a worker learner with a decoding entry can)`, { field: 'learner', value: learner.family });
      Object.assign(positions, item.positions);
      const covered = { ...positions };
      issued = covered;
      const call = ++calls;
      return learner.learnEncoded(item.values, item.decoder, evaluate, item.minibatch).then((result) => () => {
        answer(call, result.outcome?.recordsSeen ?? answered.recordsSeen);
        for (const { index, row, reason, detail } of result.refused) {
          badRecords?.next({ record: item.describe(index), reason: detail, code: reason, error: new InputError(detail, { row }) });
        }
        const describe = (index: number): unknown => item.describe(result.kept[index]);
        return finish(result.outcome, result.labels, result.rows, { describe, offered: item.consumed, rejectedBefore: result.refused.length, arrived }, covered);
      });
    };
    /** Hands an item to the learner now; what makes its event once every call before it has (a promise while the learner works on it). */
    const hand = (item: LearnInput, arrived: number): Settle | Promise<Settle> => {
      if (isEncoded(item)) return learnEncoded(item, arrived);
      const work = prepare(item, arrived);
      const covered = { ...positions };
      // Copies: a worker learner transfers (detaches) the batch's buffers.
      const labels = work.batch === undefined ? new Float64Array(0) : work.batch.y.slice(0, work.batch.n);
      const streamRows = work.rows.slice();
      issued = covered;
      if (work.batch === undefined) return () => finish(undefined, labels, streamRows, work, covered);
      const call = ++calls;
      const settle = (outcome: LearnOutcome): Settle => () => {
        answer(call, outcome.recordsSeen);
        return finish(outcome, labels, streamRows, work, covered);
      };
      const result = learner.learn(work.batch, work.rows, evaluate);
      return result instanceof Promise ? result.then(settle) : settle(result);
    };
    const waiting: { readonly item: LearnInput; readonly arrived: number }[] = [];
    const flight: InFlight[] = [];
    let ended = false;
    let pumping = false;
    let again = false;
    /** Makes the events of the answered items at the head, in order, and hands waiting items on while the window has room; completes once all are done. */
    const pump = (): void => {
      if (pumping) {
        again = true;
        return;
      }
      pumping = true;
      try {
        do {
          again = false;
          while (!subscriber.closed && flight.length > 0 && (flight[0].settle !== undefined || flight[0].failure !== undefined)) {
            const { settle, failure } = flight.shift()!;
            if (failure !== undefined) throw failure.error;
            subscriber.next((settle as Settle)());
          }
          while (!subscriber.closed && flight.length < LEARN_WINDOW && waiting.length > 0) {
            const { item, arrived } = waiting.shift()!;
            handed++;
            const entry: InFlight = {};
            flight.push(entry);
            const settle = hand(item, arrived);
            takeBehind();
            if (settle instanceof Promise) {
              settle.then((made) => { entry.settle = made; pump(); }, (error: unknown) => { entry.failure = { error }; pump(); });
            } else {
              entry.settle = settle;
              again = true;
            }
          }
        } while (again && !subscriber.closed);
        if (ended && flight.length === 0 && waiting.length === 0) subscriber.complete();
      } catch (error) {
        subscriber.error(error);
      } finally {
        pumping = false;
      }
    };
    const upstream = source.subscribe({
      next: (item) => {
        const arrived = performance.now();
        valve?.enter(isChunk(item) || isEncoded(item) ? item.consumed : Array.isArray(item) ? item.length : 1);
        received++;
        waiting.push({ item, arrived });
        pump();
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        ended = true;
        pump();
      },
    });
    return () => upstream.unsubscribe();
  });
}
