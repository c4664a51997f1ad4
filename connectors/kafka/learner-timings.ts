import { optionChecks } from '../../src/core/option-checks.js';

/** How long a Kafka learner's writes, pulse and stop may take, checked (ms). */
export interface LearnerTimings {
  /** Longest one attempt of a write may take before it is tried again (default 60,000). */
  readonly writeTimeoutMs: number;
  /** Between two reads of the end offsets, the brokers' pulse (default 1,000). */
  readonly watchMs: number;
  /** Longest the learner's stop may take before it gives up and rejects (default 30,000). */
  readonly shutdownTimeoutMs: number;
}

/** A learner's `writeTimeoutMs`, `watchMs` and `shutdownTimeoutMs`, defaults filled in; a `ConfigError` for one that is not a finite positive number. */
export function learnerTimingsOf(options: { readonly writeTimeoutMs?: number; readonly watchMs?: number; readonly shutdownTimeoutMs?: number }): LearnerTimings {
  return {
    writeTimeoutMs: optionChecks.positive('writeTimeoutMs', options.writeTimeoutMs, 60_000),
    watchMs: optionChecks.positive('watchMs', options.watchMs, 1_000),
    shutdownTimeoutMs: optionChecks.positive('shutdownTimeoutMs', options.shutdownTimeoutMs, 30_000),
  };
}
