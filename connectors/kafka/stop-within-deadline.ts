import { VbstreamError } from '../../src/core/vbstream-error.js';
import type { BrokerOutage } from './broker-outage.js';

/** The steps of a learner's {@link stopWithinDeadline} and the words of its timeout. */
export interface StopWithinDeadlineOptions {
  /** How long the drain may take, ms (the learner's `shutdownTimeoutMs`). */
  readonly timeoutMs: number;
  /** Lets the partitions finish and writes their final saves: each save's result. */
  readonly drain: () => Promise<readonly PromiseSettledResult<unknown>[]>;
  /** Once the drain ended or the deadline passed (`timedOut`): the partitions not saved, and the closing of what is left. */
  readonly close: (timedOut: boolean) => Promise<{ readonly unsaved: readonly number[]; readonly closing: Promise<unknown> }>;
  /** How long the closing gets after the deadline, ms. */
  readonly graceMs: number;
  readonly outage: BrokerOutage;
  /** The failure that stopped the learner, if one did. */
  readonly failure: () => Error | undefined;
  /** Why the drain did not end when neither a failure nor an outage says (`the models did not finish`). */
  readonly unfinished: string;
  /** What a partition's final save is: `snapshot`, `state`. */
  readonly save: string;
  /** What a partition whose final save is not written keeps: `snapshot and committed offset`. */
  readonly kept: string;
  /** The topic whose partitions are saved. */
  readonly topic: string;
}

/**
 * A learner's stop within `timeoutMs`: the drain, then the closing. Past the deadline (the brokers
 * are down, say) the closing gets `graceMs` and it rejects saying which partitions were not saved
 * (each keeps its last durable save, so a restart learns the rest exactly once); otherwise it
 * rejects with the first failed save.
 */
export async function stopWithinDeadline(options: StopWithinDeadlineOptions): Promise<void> {
  const { timeoutMs, save, topic } = options;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => { timer = setTimeout(() => resolve('deadline'), timeoutMs); });
  const outcome = await Promise.race([options.drain(), deadline]);
  clearTimeout(timer);
  const { unsaved, closing } = await options.close(outcome === 'deadline');
  if (outcome === 'deadline') {
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, options.graceMs).unref())]);
    const why = options.failure()?.message ?? (options.outage.down ? 'Kafka is unreachable' : options.unfinished);
    const which = unsaved.length === 0 ? 'the group could not be left' : `the final ${save}${unsaved.length === 1 ? '' : 's'} of partition${unsaved.length === 1 ? '' : 's'} ${unsaved.join(', ')} of ${topic} could not be written`;
    throw new VbstreamError('io', `stopping took longer than shutdownTimeoutMs (${timeoutMs} ms) allows (${why}): ${which}; ` +
      `each partition keeps its last durable ${options.kept}, so a restart learns the rest exactly once`, {});
  }
  await closing;
  const failed = outcome.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
