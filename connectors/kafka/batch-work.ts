import { VbstreamError } from '../../src/core/vbstream-error.js';

/**
 * What a learner's consumer runs for a fetched batch: nothing once the learner stops or failed
 * (`idle`); else `apply`, where vbstream's own non-retriable errors (a state or snapshot that does
 * not fit) stop the learner (`fail`) and the rest (a rebalance under way) go back to the consumer,
 * which rejoins or fetches the batch again (and reports a crash it cannot recover).
 */
export function batchWork(idle: boolean, apply: () => Promise<void>, stopping: () => boolean, fail: (error: unknown) => void): Promise<void> {
  if (idle) return Promise.resolve();
  return apply().catch((error: unknown) => {
    if (error instanceof VbstreamError && !error.retriable) fail(error);
    else if (!stopping()) throw error;
  });
}
