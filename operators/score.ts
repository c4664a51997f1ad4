import { Observable, type OperatorFunction } from 'rxjs';
import { ConfigError } from '../src/core/config-error.js';
import { InputError } from '../src/core/input-error.js';
import type { ModelSnapshot } from '../src/core/model-snapshot.js';
import type { OnlineModel } from '../src/core/online-model.js';
import { optionChecks } from '../src/core/option-checks.js';
import { ShapeError } from '../src/core/shape-error.js';
import type { Predictive } from '../src/core/predictive.js';
import { VbstreamError } from '../src/core/vbstream-error.js';
import { getFamily } from '../src/registry.js';
import type { BadRecordSink } from './bad-record.js';
import type { LabelledRecord } from './labelled-record.js';
import type { Prediction } from './prediction.js';
import { typedError } from './typed-error.js';
import type { SnapshotEvent } from '../src/core/snapshot-event.js';
import { operatorObserver } from './operator-observer.js';

/** Options of {@link score}. */
export interface ScoreOptions {
  /** Mass of the credible interval, in (0, 1); default 0.9. */
  readonly level?: number;
  /** Receives records that cannot be scored (wrong width, non-finite feature). */
  readonly badRecords?: BadRecordSink;
}

function toModel(posterior: OnlineModel | ModelSnapshot | SnapshotEvent): OnlineModel {
  if ('snapshot' in posterior && typeof posterior.snapshot === 'function') return posterior as OnlineModel;
  const snapshot = 'arrays' in posterior ? posterior : (posterior as SnapshotEvent).snapshot;
  return getFamily(snapshot.family).restore(snapshot);
}

/**
 * Joins each record with the latest posterior on `posterior$` (a live model, a snapshot, or a
 * `snapshots()` event, restored through the registry) and emits its {@link Prediction}. Records
 * that arrive before the first posterior wait for it; if `posterior$` completes without one, they
 * go to `badRecords`. A record that cannot be scored goes to `badRecords` and the stream carries
 * on. The output completes when the records do (after any waiting ones are scored); an error on
 * either input errors it.
 */
export function score(posterior$: Observable<OnlineModel | ModelSnapshot | SnapshotEvent>, options: ScoreOptions = {}): OperatorFunction<LabelledRecord, Prediction> {
  const level = optionChecks.inRange('level', options.level, 0.9, 0, 1, true);
  if (level >= 1) throw new ConfigError('level must be below 1', { field: 'level', value: level });
  const { badRecords } = options;
  return (records$) => new Observable<Prediction>((subscriber) => {
    let model: OnlineModel | undefined;
    let waiting: LabelledRecord[] = [];
    let recordsDone = false;
    let posteriorsDone = false;
    const unscorable = (record: LabelledRecord): void => {
      const error = new InputError('no posterior arrived to score the record against', { row: record.row });
      badRecords?.next({ record, reason: error.message, error });
    };
    const emit = (record: LabelledRecord, current: OnlineModel): void => {
      let predictive: Predictive;
      try {
        if (record.x.length !== current.dim) throw new ShapeError(`record has ${record.x.length} features but the model has ${current.dim}`, { field: 'x', value: record.x.length });
        predictive = current.predict(record.x);
      } catch (error) {
        if (!(error instanceof VbstreamError) || (error.kind !== 'input' && error.kind !== 'shape')) throw error;
        const located = typedError(error.kind, error.reason, { ...error.location, row: record.row }, error.retriable, error);
        badRecords?.next({ record, reason: located.message, error: located });
        return;
      }
      subscriber.next({
        record, family: current.family, recordsSeen: current.recordsSeen, kind: predictive.kind, mean: predictive.mean, variance: predictive.variance,
        interval: predictive.interval(level), logLoss: Number.isFinite(record.y) ? -predictive.logProb(record.y) : Number.NaN,
      });
    };
    const posteriors = posterior$.subscribe(operatorObserver<OnlineModel | ModelSnapshot | SnapshotEvent>(subscriber, {
      next(posterior) {
        model = toModel(posterior);
        const pending = waiting;
        waiting = [];
        for (const record of pending) emit(record, model);
        if (recordsDone) subscriber.complete();
      },
      complete() {
        posteriorsDone = true;
        if (model !== undefined) return;
        for (const record of waiting) unscorable(record);
        waiting = [];
        if (recordsDone) subscriber.complete();
      },
    }));
    const upstream = records$.subscribe(operatorObserver<LabelledRecord>(subscriber, {
      next(record) {
        if (model !== undefined) emit(record, model);
        else if (posteriorsDone) unscorable(record);
        else waiting.push(record);
      },
      complete() {
        recordsDone = true;
        if (waiting.length === 0) subscriber.complete();
      },
    }));
    return () => {
      posteriors.unsubscribe();
      upstream.unsubscribe();
    };
  });
}
