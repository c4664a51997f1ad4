import { asyncScheduler, Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { ConfigError } from '../src/core/config-error.js';
import { optionChecks } from '../src/core/option-checks.js';
import { operatorObserver } from './operator-observer.js';

/**
 * Groups items into arrays of `size`, emitting a shorter one when `maxWaitMs` has passed since its
 * first item arrived (`Infinity`: never), and the remainder on completion. Order is kept and no
 * item is lost or repeated. On error the pending items are dropped and the error passed on, as
 * RxJS's `bufferCount` and `bufferTime` do.
 */
export function minibatch<T>(size: number, maxWaitMs = Infinity, scheduler: SchedulerLike = asyncScheduler): OperatorFunction<T, T[]> {
  optionChecks.positiveInteger('size', size, Number.NaN);
  if (!(maxWaitMs >= 0)) throw new ConfigError('maxWaitMs must be a non-negative number or Infinity', { field: 'maxWaitMs', value: maxWaitMs });
  return (source) => new Observable<T[]>((subscriber) => {
    let buffer: T[] = [];
    let timer: Subscription | undefined;
    const flush = (): void => {
      timer?.unsubscribe();
      timer = undefined;
      if (buffer.length === 0) return;
      const out = buffer;
      buffer = [];
      subscriber.next(out);
    };
    const upstream = source.subscribe(operatorObserver<T>(subscriber, {
      next(item) {
        buffer.push(item);
        if (buffer.length >= size) flush();
        else if (buffer.length === 1 && Number.isFinite(maxWaitMs)) timer = scheduler.schedule(flush, maxWaitMs);
      },
      error(error) {
        timer?.unsubscribe();
        buffer = [];
        subscriber.error(error);
      },
      complete() {
        flush();
        subscriber.complete();
      },
    }));
    return () => {
      timer?.unsubscribe();
      upstream.unsubscribe();
    };
  });
}
