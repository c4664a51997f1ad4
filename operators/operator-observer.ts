import type { Observer, Subscriber } from 'rxjs';

/**
 * The observer an operator subscribes to its source with: `next` and `complete` run the operator's
 * code and, if it throws (a model's predict, a user's callback), the error goes down the stream to
 * `destination` instead of escaping as an uncaught exception — what RxJS's own operators do through
 * `createOperatorSubscriber`. An error from the source passes through unless `error` is given.
 */
export function operatorObserver<T>(destination: Subscriber<unknown>, handlers: { next(value: T): void; complete?(): void; error?(error: unknown): void }): Observer<T> {
  return {
    next(value) {
      try {
        handlers.next(value);
      } catch (error) {
        destination.error(error);
      }
    },
    error(error) {
      try {
        if (handlers.error !== undefined) handlers.error(error);
        else destination.error(error);
      } catch (thrown) {
        destination.error(thrown);
      }
    },
    complete() {
      try {
        if (handlers.complete !== undefined) handlers.complete();
        else destination.complete();
      } catch (error) {
        destination.error(error);
      }
    },
  };
}
