import type { BrokerOutage } from './broker-outage.js';
import { isRetriableKafkaFailure } from './is-retriable-kafka-failure.js';
import { wakeableSleep } from './wakeable-sleep.js';

/** What {@link brokerPulse} reads and whom it tells. */
export interface BrokerPulseOptions<T> {
  /** The read that tells whether the brokers answer (end offsets, say). */
  readonly read: () => Promise<T>;
  /** Hears each successful read, after the outage heard of it. */
  readonly seen?: (value: T) => void;
  readonly outage: BrokerOutage;
  /** Between reads, ms. */
  readonly everyMs: number;
  /** Wakes the sleep between reads (to stop at once). */
  readonly waker: { wake?: () => void };
  /** Whether to read again. */
  readonly running: () => boolean;
  readonly stopping: () => boolean;
  /** Hears a failure that is not retriable. */
  readonly fail: (error: unknown) => void;
}

/** Reads every `everyMs` while `running`: the brokers' pulse while idle (a retriable failure starts an outage, a success ends it). */
export async function brokerPulse<T>(options: BrokerPulseOptions<T>): Promise<void> {
  const { read, seen, outage, everyMs, waker, running, stopping, fail } = options;
  while (running()) {
    try {
      const value = await read();
      outage.succeeded();
      seen?.(value);
    } catch (error) {
      if (stopping()) break;
      if (isRetriableKafkaFailure(error)) outage.failed('reading end offsets', error);
      else fail(error);
    }
    await wakeableSleep(everyMs, waker);
  }
}
