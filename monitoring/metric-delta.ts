import type { PosteriorSummary } from '../src/core/online-model.js';
import type { CoefficientSummary } from './coefficient-summary.js';

/** Bucket counts (non-cumulative, one more than the bounds), sum and count added since the last delta. */
export interface HistogramDelta {
  readonly counts: Float64Array;
  readonly sum: number;
  readonly count: number;
}

/**
 * What one model (of one partition) changed since its last delta: a plain, structured-cloneable
 * object (numbers, strings, `Float64Array`s) that a worker posts to the main thread, which owns the
 * Prometheus registry. Counts and histograms are increments; the optional scalars are the latest
 * values (absent when unchanged).
 */
export interface MetricDelta {
  readonly model: string;
  readonly partition: string;
  /** Records learned. */
  readonly learned: number;
  /** Records rejected, by reason (a short, bounded token such as an error kind). */
  readonly rejected: { readonly [reason: string]: number };
  /** Update latency in seconds, one observation per update call. */
  readonly updateDuration: HistogramDelta;
  /** Records per update call. */
  readonly minibatchSize: HistogramDelta;
  /** Predicted p(y = 1) of records whose label turned out 0 and 1 (prequential calibration). */
  readonly calibration: { readonly negative: HistogramDelta; readonly positive: HistogramDelta };
  /** Snapshots taken. */
  readonly snapshots: number;
  /** Seconds the worker spent on this model's tasks. */
  readonly workerBusySeconds: number;
  /** Latest objective (ELBO, bound or loss). */
  readonly objective?: number;
  /** Prequential log-loss and Brier score, means over the recorder's window of recent records. */
  readonly logLoss?: number;
  readonly brierScore?: number;
  readonly posterior?: PosteriorSummary;
  /** The largest posterior coefficients (live view). */
  readonly coefficients?: CoefficientSummary;
  /** Size of the latest snapshot in bytes and when it was taken (ms since the epoch). */
  readonly snapshotSizeBytes?: number;
  readonly snapshotTimeMs?: number;
}

/** The message a worker posts: a tagged batch of deltas. */
export interface MetricDeltaMessage {
  readonly type: 'vbstream-metrics';
  readonly deltas: readonly MetricDelta[];
}
