import { VbstreamError } from '../../src/core/vbstream-error.js';
import { isRetriableKafkaFailure } from './is-retriable-kafka-failure.js';

/**
 * Runs `work`; a failure, or no answer within `ms`, rejects with a `VbstreamError` naming `what`:
 * retriable when the brokers may come back (no answer, a network or broker error), not when
 * trying again cannot help (the record is too large, authorisation). At the deadline `work`'s
 * signal is aborted, so a write that takes several sends can stop before its next one instead of
 * landing after the attempt that replaces it.
 */
export async function writeWithin<T>(work: (signal: AbortSignal) => Promise<T>, ms: number, what: string, where: string): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new VbstreamError('io', `${what} did not answer within ${ms} ms: check that the brokers are reachable and that ${where} accepts messages of this size`, { field: what, value: ms, source: where }, true));
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } catch (cause) {
    if (cause instanceof VbstreamError) throw cause;
    throw new VbstreamError('io', `${what} failed writing to ${where}: ${cause instanceof Error ? cause.message : String(cause)}`, { field: what, source: where }, isRetriableKafkaFailure(cause), { cause });
  } finally {
    clearTimeout(timer);
  }
}
