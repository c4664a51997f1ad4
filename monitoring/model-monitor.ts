import type { OnlineModel, UpdateStats } from '../src/core/online-model.js';
import type { RecordScores } from '../src/core/record-scores.js';
import type { ModelMetricsRecorder } from './model-metrics-recorder.js';
import { summariseCoefficients } from './summarise-coefficients.js';

/** What the monitor needs of one learn call. */
export interface LearnedBatch {
  readonly stats: UpdateStats;
  /** Wall time of the call where the model ran, ms. */
  readonly durationMs: number;
  /** Test-then-train scores of the batch rows, when the call evaluated them. */
  readonly scores?: RecordScores;
}

/**
 * Feeds a `ModelMetricsRecorder` from the learn path where the model lives (the main thread or a
 * worker): per learn call, the records learned with the call's duration and size, the objective,
 * and each test-then-train score (a binary label's p(y = 1) with calibration, else the log-loss);
 * and at most once per `summaryEveryMs` the posterior summary, whose condition number costs an
 * O(d³) eigendecomposition, and the largest coefficients with their spread (`summariseCoefficients`). Rejections are counted where every bad record is seen, the bad-record
 * sink.
 */
export class ModelMonitor {
  private summarisedAt = -Infinity;

  constructor(readonly recorder: ModelMetricsRecorder, private readonly summaryEveryMs = 1000, private readonly now: () => number = () => performance.now()) {}

  /** One learn call of `model` (see `applyBatch`); `labels[i]` is the label of batch row i. */
  learned(model: OnlineModel, outcome: LearnedBatch, labels: ArrayLike<number>): void {
    const { recorder } = this;
    const { stats, scores } = outcome;
    if (stats.records > 0) recorder.recordLearned(stats.records, outcome.durationMs / 1000);
    if (stats.objective !== undefined) recorder.setObjective(stats.objective);
    if (scores !== undefined) {
      const binary = scores.kind === 'bernoulli';
      for (let i = 0; i < scores.mean.length; i++) {
        if (Number.isNaN(scores.logLoss[i])) continue;
        if (binary) recorder.recordPrediction(scores.mean[i], labels[i], scores.logLoss[i]);
        else recorder.recordLogLoss(scores.logLoss[i]);
      }
    }
    const now = this.now();
    if (now - this.summarisedAt >= this.summaryEveryMs) {
      this.summarisedAt = now;
      let summary: ReturnType<OnlineModel['summary']> | undefined;
      try {
        summary = model.summary();
      } catch {
        // A posterior whose summary cannot be computed (a degenerate covariance) is not a reason to
        // fail the update it follows: the gauges keep their last values.
      }
      if (summary !== undefined) recorder.setPosteriorSummary(summary);
      try {
        recorder.setCoefficients(summariseCoefficients(model));
      } catch {
        // Likewise: a posterior mean that cannot be computed leaves the live view's last coefficients.
      }
    }
  }
}
