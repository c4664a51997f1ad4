import type { PosteriorSummary } from '../src/core/online-model.js';
import { BucketCounts } from './bucket-counts.js';
import type { CoefficientSummary } from './coefficient-summary.js';
import type { HistogramDelta, MetricDelta } from './metric-delta.js';
import { METRIC_BUCKETS } from './metric-buckets.js';
import { SlidingMean } from './sliding-mean.js';

/** Options of a `ModelMetricsRecorder`. */
export interface ModelMetricsRecorderOptions {
  /** Records in the prequential log-loss / Brier window; default 1,000. */
  readonly window?: number;
}

const PROBABILITY_FLOOR = 1e-15;

function take(counts: BucketCounts): HistogramDelta {
  const delta = { counts: Float64Array.from(counts.counts), sum: counts.sum, count: counts.count };
  counts.clear();
  return delta;
}

/**
 * Records the metrics of one model (of one partition) on plain numbers and arrays — no prom-client,
 * so it runs in a worker thread as well as on the main thread — and hands what changed over as a
 * serialisable `MetricDelta` (`drain`). Every recording method is O(1) without allocation, cheap
 * enough for a per-record learn loop. On the main thread `PipelineMetrics.model()` gives one that
 * the registry drains at each scrape; in a worker, `WorkerMetricsReporter` posts the deltas.
 */
export class ModelMetricsRecorder {
  private learned = 0;
  private rejected = new Map<string, number>();
  private readonly updateDuration = new BucketCounts(METRIC_BUCKETS.updateDurationSeconds);
  private readonly minibatchSize = new BucketCounts(METRIC_BUCKETS.minibatchSize);
  private readonly negative = new BucketCounts(METRIC_BUCKETS.predictedProbability);
  private readonly positive = new BucketCounts(METRIC_BUCKETS.predictedProbability);
  private readonly logLoss: SlidingMean;
  private readonly brier: SlidingMean;
  private scored = false;
  private snapshots = 0;
  private busySeconds = 0;
  private objective: number | undefined;
  private posterior: PosteriorSummary | undefined;
  private coefficients: CoefficientSummary | undefined;
  private snapshotSizeBytes: number | undefined;
  private snapshotTimeMs: number | undefined;

  constructor(readonly model: string, readonly partition = '', options: ModelMetricsRecorderOptions = {}) {
    const window = options.window ?? 1000;
    this.logLoss = new SlidingMean(window);
    this.brier = new SlidingMean(window);
  }

  /** One update call absorbed `records` records in `seconds` (latency and minibatch size are observed per call). */
  recordLearned(records: number, seconds: number): void {
    this.learned += records;
    this.updateDuration.observe(seconds);
    this.minibatchSize.observe(records);
  }

  /** `records` records were refused, for `reason` (a short, bounded token, e.g. the error's `kind`). */
  recordRejected(reason: string, records = 1): void {
    this.rejected.set(reason, (this.rejected.get(reason) ?? 0) + records);
  }

  /** The family's objective after the latest update (ELBO, bound or DLM loss). */
  setObjective(value: number): void {
    this.objective = value;
  }

  /**
   * A test-then-train score of a binary label: `prob` = p(y = 1) predicted before learning the
   * record, `outcome` its label (1 positive; 0 or -1 negative). The log-loss is `logLoss` when given
   * (−log p(y) from the predictive, exact in the tails) and otherwise −log of `prob` clamped to
   * [1e-15, 1 − 1e-15].
   */
  recordPrediction(prob: number, outcome: number, logLoss?: number): void {
    const positive = outcome === 1;
    const p = positive ? prob : 1 - prob;
    this.logLoss.push(logLoss ?? -Math.log(Math.min(Math.max(p, PROBABILITY_FLOOR), 1 - PROBABILITY_FLOOR)));
    const miss = 1 - p;
    this.brier.push(miss * miss);
    (positive ? this.positive : this.negative).observe(prob);
    this.scored = true;
  }

  /** A test-then-train log-loss of a record whose label is not binary (regression families). */
  recordLogLoss(logLoss: number): void {
    this.logLoss.push(logLoss);
    this.scored = true;
  }

  setPosteriorSummary(summary: PosteriorSummary): void {
    this.posterior = summary;
  }

  /** The largest posterior coefficients, for the live view. */
  setCoefficients(summary: CoefficientSummary): void {
    this.coefficients = summary;
  }

  /** A snapshot of `bytes` bytes was made durable at `atMs` (ms since the epoch; default now). */
  recordSnapshot(bytes: number, atMs = Date.now()): void {
    this.snapshots++;
    this.snapshotSizeBytes = bytes;
    this.snapshotTimeMs = atMs;
  }

  /** A worker spent `seconds` on this model's work. */
  workerBusy(seconds: number): void {
    this.busySeconds += seconds;
  }

  /** What changed since the previous drain (and resets the increments), or undefined if nothing did. */
  drain(): MetricDelta | undefined {
    const changed = this.learned !== 0 || this.rejected.size !== 0 || this.updateDuration.count !== 0 || this.scored || this.snapshots !== 0 ||
      this.busySeconds !== 0 || this.objective !== undefined || this.posterior !== undefined || this.coefficients !== undefined || this.snapshotTimeMs !== undefined;
    if (!changed) return undefined;
    const delta: MetricDelta = {
      model: this.model,
      partition: this.partition,
      learned: this.learned,
      rejected: Object.fromEntries(this.rejected),
      updateDuration: take(this.updateDuration),
      minibatchSize: take(this.minibatchSize),
      calibration: { negative: take(this.negative), positive: take(this.positive) },
      snapshots: this.snapshots,
      workerBusySeconds: this.busySeconds,
      objective: this.objective,
      logLoss: this.scored && this.logLoss.count > 0 ? this.logLoss.mean : undefined,
      brierScore: this.scored && this.brier.count > 0 ? this.brier.mean : undefined,
      posterior: this.posterior,
      coefficients: this.coefficients,
      snapshotSizeBytes: this.snapshotSizeBytes,
      snapshotTimeMs: this.snapshotTimeMs,
    };
    this.learned = 0;
    this.rejected = new Map();
    this.scored = false;
    this.snapshots = 0;
    this.busySeconds = 0;
    this.objective = undefined;
    this.posterior = undefined;
    this.coefficients = undefined;
    this.snapshotSizeBytes = undefined;
    this.snapshotTimeMs = undefined;
    return delta;
  }
}
