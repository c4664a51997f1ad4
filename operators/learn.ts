import { concatMap, defer, from, map, of, type Observable, type OperatorFunction } from 'rxjs';
import type { OnlineModel } from '../src/core/online-model.js';
import { ShapeError } from '../src/core/shape-error.js';
import type { BackpressureValve } from './backpressure-valve.js';
import type { BadRecordSink } from './bad-record.js';
import { InProcessLearner } from './in-process-learner.js';
import type { LabelledRecord } from './labelled-record.js';
import type { LearnOutcome } from './learn-outcome.js';
import type { Learner } from './learner.js';
import { packRecords } from './pack-records.js';
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

function isLearner(model: OnlineModel | Learner): model is Learner {
  return typeof (model as Learner).learn === 'function';
}

/**
 * Feeds records (or minibatches, arrays of records) to a model in arrival order, one update at a
 * time, and emits an {@link UpdateEvent} per record or minibatch. `model` is an `OnlineModel`
 * (updated in this thread, synchronously) or a {@link Learner} such as a `WorkerLearner`.
 * A record of the wrong width or one the model's validation refuses goes to `badRecords` and the
 * stream carries on with the model untouched by it; any other error errors the stream.
 */
export function learn(model: OnlineModel | Learner, options: LearnOptions = {}): OperatorFunction<LabelledRecord | readonly LabelledRecord[], UpdateEvent> {
  const learner = isLearner(model) ? model : new InProcessLearner(model);
  const { evaluate = false, badRecords, valve } = options;
  return (source) => defer(() => {
    const positions: { [source: string]: number } = {};
    return source.pipe(
      map((item) => {
        const offered = Array.isArray(item) ? (item as readonly LabelledRecord[]) : [item as LabelledRecord];
        valve?.enter(offered.length);
        return { offered, arrived: performance.now() };
      }),
      concatMap(({ offered, arrived }): Observable<UpdateEvent> => {
        const good: LabelledRecord[] = [];
        let rejected = 0;
        for (const record of offered) {
          if (record.position !== undefined) positions[record.position.source] = record.position.offset;
          if (record.x.length === learner.dim) good.push(record);
          else {
            rejected++;
            const error = new ShapeError(`record has ${record.x.length} features but the model has ${learner.dim}`, { row: record.row, field: 'x', value: record.x.length });
            badRecords?.next({ record, reason: error.message, error });
          }
        }
        const covered = { ...positions };
        const finish = (outcome: LearnOutcome | undefined): UpdateEvent => {
          valve?.leave(offered.length);
          let learned = good;
          if (outcome !== undefined) {
            if (outcome.rejected.length > 0) {
              const refused = new Set(outcome.rejected.map((r) => r.index));
              for (const { index, error } of outcome.rejected) badRecords?.next({ record: good[index], reason: error.message, error });
              learned = good.filter((_, i) => !refused.has(i));
              rejected += outcome.rejected.length;
            }
          }
          const scores = outcome?.scores === undefined || learned === good ? outcome?.scores : compactScores(outcome.scores, good, learned);
          return {
            family: learner.family, learner, records: learned, offered: offered.length, rejected, recordsSeen: learner.recordsSeen,
            stats: outcome?.stats ?? { records: 0 }, durationMs: outcome?.durationMs ?? 0, latencyMs: performance.now() - arrived,
            positions: covered, queueDepth: valve?.depth ?? 0, scores,
          };
        };
        if (good.length === 0) return of(finish(undefined));
        const { batch, rows } = packRecords(good, learner.dim);
        const result = learner.learn(batch, rows, evaluate);
        return result instanceof Promise ? from(result.then(finish)) : of(finish(result));
      }),
    );
  });
}

function compactScores(scores: NonNullable<LearnOutcome['scores']>, good: readonly LabelledRecord[], learned: readonly LabelledRecord[]): NonNullable<LearnOutcome['scores']> {
  const kept = new Set(learned);
  const indices = good.flatMap((record, i) => (kept.has(record) ? [i] : []));
  const pick = (a: Float64Array) => Float64Array.from(indices, (i) => a[i]);
  return { kind: scores.kind, mean: pick(scores.mean), variance: pick(scores.variance), logLoss: pick(scores.logLoss) };
}
