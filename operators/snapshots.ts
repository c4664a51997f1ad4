import { asyncScheduler, Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { optionChecks } from '../src/core/option-checks.js';
import type { SnapshotEvent, SnapshotReason } from '../src/core/snapshot-event.js';
import { operatorObserver } from './operator-observer.js';
import type { SnapshotCapture } from './snapshot-capture.js';
import type { UpdateEvent } from './update-event.js';

/** Options of {@link snapshots}: at least one of the triggers, or only the final snapshot. */
export interface SnapshotOptions {
  /** Snapshot once this many records (offered, refused included) have passed since the last one. */
  readonly everyRecords?: number;
  /** Snapshot once this many ms have passed since the last snapshot (of any trigger; or since the start) if records have passed since it. */
  readonly everyMs?: number;
  /** Snapshot when the update stream completes (default true) if records passed since the last one. */
  readonly onComplete?: boolean;
  /**
   * Snapshot whenever this emits (e.g. `'records'` or `'caught-up'` from a source that counts its
   * own records), covering every item `learn` has received so far (taken once they are handed to the
   * learner): asked for at once if an update event has been seen, else at the first event.
   */
  readonly requests?: Observable<SnapshotReason>;
  /** Clock and timers (default `asyncScheduler`; a `TestScheduler` in marble tests). */
  readonly scheduler?: SchedulerLike;
}

/**
 * Turns `learn`'s update events into posterior snapshots every N records, every T ms, on request
 * and on completion. Each snapshot comes from the latest event's `capture()`, which pairs the state
 * with the positions of the batches the learner had been sent when it was asked — so a timer
 * firing while a worker has more batches queued gives a state and positions from the same point of
 * its queue. Snapshots are emitted in order and completion waits for the last one. An error from
 * upstream or from taking a snapshot errors the stream.
 */
export function snapshots(options: SnapshotOptions = {}): OperatorFunction<UpdateEvent, SnapshotEvent> {
  const { everyRecords, everyMs, onComplete = true, requests, scheduler = asyncScheduler } = options;
  if (everyRecords !== undefined) optionChecks.positiveInteger('everyRecords', everyRecords, Number.NaN);
  if (everyMs !== undefined) optionChecks.positive('everyMs', everyMs, Number.NaN);
  return (source) => new Observable<SnapshotEvent>((subscriber) => {
    let last: UpdateEvent | undefined;
    let sinceLast = 0;
    let tail: Promise<void> | undefined;
    let timer: Subscription | undefined;
    let ended = false;
    const arm = (): void => {
      if (everyMs === undefined || ended) return;
      timer?.unsubscribe();
      timer = scheduler.schedule(() => {
        try {
          if (last !== undefined && sinceLast > 0) take(last, 'interval');
          else arm();
        } catch (error) {
          subscriber.error(error);
        }
      }, everyMs);
    };
    const take = (event: UpdateEvent, reason: SnapshotReason, all = false): void => {
      sinceLast = 0;
      arm();
      const createdAt = new Date(scheduler.now()).toISOString();
      const state = event.capture(all);
      const emit = ({ snapshot, recordsSeen, positions }: SnapshotCapture): void => {
        subscriber.next({ snapshot, recordsSeen, positions, createdAt, reason });
      };
      if (tail === undefined && !(state instanceof Promise)) {
        emit(state);
        return;
      }
      tail = (tail ?? Promise.resolve()).then(() => state).then((capture) => { if (!subscriber.closed) emit(capture); });
      tail.catch((error: unknown) => subscriber.error(error));
    };
    const due = (reason: SnapshotReason): void => {
      if (last !== undefined && sinceLast > 0) take(last, reason);
    };
    let requested: SnapshotReason | undefined;
    const request = (reason: SnapshotReason): void => {
      if (last === undefined) requested = reason;
      else take(last, reason, true);
    };
    arm();
    const requesting = requests?.subscribe(operatorObserver<SnapshotReason>(subscriber, { next: request, complete: () => undefined }));
    const upstream = source.subscribe(operatorObserver<UpdateEvent>(subscriber, {
      next(event) {
        last = event;
        if (event.snapshotted !== true) sinceLast += event.offered;
        if (requested !== undefined) {
          const reason = requested;
          requested = undefined;
          take(event, reason, true);
        } else if (everyRecords !== undefined && sinceLast >= everyRecords) take(event, 'records');
      },
      complete() {
        ended = true;
        timer?.unsubscribe();
        requesting?.unsubscribe();
        if (onComplete) due('complete');
        if (tail === undefined) subscriber.complete();
        else tail.then(() => subscriber.complete(), () => undefined);
      },
    }));
    return () => {
      ended = true;
      timer?.unsubscribe();
      requesting?.unsubscribe();
      upstream.unsubscribe();
    };
  });
}
