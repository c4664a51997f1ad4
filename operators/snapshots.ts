import { asyncScheduler, Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import type { ModelSnapshot } from '../src/core/model-snapshot.js';
import { optionChecks } from '../src/core/option-checks.js';
import type { SnapshotEvent, SnapshotReason } from './snapshot-event.js';
import type { UpdateEvent } from './update-event.js';

/** Options of {@link snapshots}: at least one of the triggers, or only the final snapshot. */
export interface SnapshotOptions {
  /** Snapshot once this many records (offered, refused included) have passed since the last one. */
  readonly everyRecords?: number;
  /** Snapshot every this many ms if records have passed since the last one. */
  readonly everyMs?: number;
  /** Snapshot when the update stream completes (default true) if records passed since the last one. */
  readonly onComplete?: boolean;
  /** Clock and timers (default `asyncScheduler`; a `TestScheduler` in marble tests). */
  readonly scheduler?: SchedulerLike;
}

/**
 * Turns `learn`'s update events into posterior snapshots every N records and/or T ms and on
 * completion. The state is asked for right after the triggering event, so it covers exactly the
 * records and source positions the event reports, even when the model is in a worker; snapshots
 * are emitted in order, and completion waits for the last one. An error passes straight through.
 */
export function snapshots(options: SnapshotOptions = {}): OperatorFunction<UpdateEvent, SnapshotEvent> {
  const { everyRecords, everyMs, onComplete = true, scheduler = asyncScheduler } = options;
  if (everyRecords !== undefined) optionChecks.positiveInteger('everyRecords', everyRecords, Number.NaN);
  if (everyMs !== undefined) optionChecks.positive('everyMs', everyMs, Number.NaN);
  return (source) => new Observable<SnapshotEvent>((subscriber) => {
    let last: UpdateEvent | undefined;
    let sinceLast = 0;
    let tail: Promise<void> | undefined;
    const take = (event: UpdateEvent, reason: SnapshotReason): void => {
      sinceLast = 0;
      const createdAt = new Date(scheduler.now()).toISOString();
      const state = event.learner.snapshot();
      const emit = (snapshot: ModelSnapshot): void => {
        subscriber.next({ snapshot, recordsSeen: event.recordsSeen, positions: event.positions, createdAt, reason });
      };
      if (tail === undefined && !(state instanceof Promise)) {
        emit(state);
        return;
      }
      tail = (tail ?? Promise.resolve()).then(() => state).then((snapshot) => { if (!subscriber.closed) emit(snapshot); });
      tail.catch((error: unknown) => subscriber.error(error));
    };
    let timer: Subscription | undefined;
    if (everyMs !== undefined) {
      timer = scheduler.schedule(function tick() {
        if (last !== undefined && sinceLast > 0) take(last, 'interval');
        this.schedule(undefined, everyMs);
      }, everyMs);
    }
    const upstream = source.subscribe({
      next(event) {
        last = event;
        sinceLast += event.offered;
        if (everyRecords !== undefined && sinceLast >= everyRecords) take(event, 'records');
      },
      error(error) {
        subscriber.error(error);
      },
      complete() {
        timer?.unsubscribe();
        if (onComplete && last !== undefined && sinceLast > 0) take(last, 'complete');
        if (tail === undefined) subscriber.complete();
        else tail.then(() => subscriber.complete(), () => undefined);
      },
    });
    return () => {
      timer?.unsubscribe();
      upstream.unsubscribe();
    };
  });
}
