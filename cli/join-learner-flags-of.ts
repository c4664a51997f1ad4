import { metricsEndpointOf, type MetricsEndpoint } from './metrics-endpoint-of.js';
import { numberFlag } from './number-flag.js';

/** The flags of a keyed-join learner service, as {@link joinLearnerFlagsOf} reads them. */
export interface JoinLearnerFlags {
  readonly partitions: number;
  readonly snapshotEvery: number;
  readonly sessionTimeoutMs: number | undefined;
  readonly maxStateRecordBytes: number | undefined;
  readonly endpoint: MetricsEndpoint | undefined;
  /** Undefined: `serveUntilSignal`'s default. */
  readonly shutdownTimeoutMs: number | undefined;
}

/**
 * The flags `bandit:learn` and `serve:learn` share, checked: `--partitions` (default 1),
 * `--snapshot-every` (default 1,000), `--session-timeout-ms`, `--max-state-record-bytes`, the
 * metrics endpoint's (default port 9464) and `--shutdown-timeout-ms`.
 */
export function joinLearnerFlagsOf(values: Parameters<typeof metricsEndpointOf>[0] & { readonly partitions?: string; readonly 'snapshot-every'?: string; readonly 'session-timeout-ms'?: string; readonly 'max-state-record-bytes'?: string; readonly 'shutdown-timeout-ms'?: string }): JoinLearnerFlags {
  return {
    partitions: numberFlag('--partitions', values.partitions, 1, { min: 1 }),
    snapshotEvery: numberFlag('--snapshot-every', values['snapshot-every'], 1_000, { min: 1 }),
    sessionTimeoutMs: values['session-timeout-ms'] === undefined ? undefined : numberFlag('--session-timeout-ms', values['session-timeout-ms'], 30_000, { min: 1 }),
    maxStateRecordBytes: values['max-state-record-bytes'] === undefined ? undefined : numberFlag('--max-state-record-bytes', values['max-state-record-bytes'], 1_000_000, { min: 1 }),
    endpoint: metricsEndpointOf(values, 9464),
    shutdownTimeoutMs: values['shutdown-timeout-ms'] === undefined ? undefined : numberFlag('--shutdown-timeout-ms', values['shutdown-timeout-ms'], 0, { min: 1 }),
  };
}
