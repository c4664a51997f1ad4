import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DeadLetterReason } from '../connectors/kafka/dead-letter-reason.js';
import { METRIC_BUCKETS } from '../monitoring/metric-buckets.js';
import type { Task } from '../src/core/task.js';

/** Predicted probabilities are clamped to [PROBABILITY_FLOOR, 1 − PROBABILITY_FLOOR] in the log-loss. */
const PROBABILITY_FLOOR = 1e-15;

/**
 * The outcome learner's metrics in a registry (e.g. `PipelineMetrics.registry`, served by its
 * metrics server): how the predictions the scoring services *served* fared once their labels
 * arrived, and the join's own counts. Each labelled prediction is scored with what was answered
 * (its logged `mean` and `variance`), never with the learner's newer posterior:
 *
 * - binary labels (1 positive; 0 or −1 negative): the log-loss −log p(y) of the served p(y = 1)
 *   (clamped to [1e-15, 1 − 1e-15]) and the Brier score (p − y)², summed (`_total`; / the labelled
 *   count: the mean), and the served p by the label that followed (`outcome` "0" or "1", ten equal
 *   bins: the reliability diagram) with the expected calibration error over those bins,
 *   ECE = Σ_b (n_b / N) |ȳ_b − p̄_b|;
 * - other labels: the log-loss of y under a normal of the served mean and variance (the predictive
 *   matched in its first two moments), and the squared error (y − mean)²;
 * - the label delay, from `predictedAt` to the outcome's record timestamp on the outcomes topic;
 * - predictions resolved (labelled, expired and learned with the default label, expired and
 *   dropped), predictions pending, and dead letters by reason.
 *
 * Counts are this process's (Prometheus counters): a partition moved to this instance by a
 * rebalance has the outcomes after its last state counted again here as they are learned again.
 */
export class OutcomeMetrics {
  private readonly resolved: Counter<'outcome'>;
  private readonly logLoss: Counter;
  private readonly brier: Counter;
  private readonly squaredError: Counter;
  private readonly calibration: Histogram<'outcome'>;
  private readonly calibrationError: Gauge;
  private readonly delay: Histogram;
  private readonly pending: Gauge;
  private readonly deadLetters: Counter<'reason'>;
  /** Per calibration bin: predictions, their summed p, positive labels. */
  private readonly bins = METRIC_BUCKETS.predictedProbability.map(() => ({ n: 0, p: 0, positives: 0 }));

  constructor(registry: Registry, private readonly task: Task) {
    const registers = [registry];
    this.resolved = new Counter({ name: 'vbstream_serve_outcomes_total', help: 'Served predictions resolved at the outcome learner: labelled, expired-learned (default label) or expired-dropped.', labelNames: ['outcome'], registers });
    this.logLoss = new Counter({ name: 'vbstream_serve_log_loss_total', help: 'Sum of the log-loss (nats) of the served predictions whose label arrived; / outcomes_total{outcome="labelled"}: the mean.', registers });
    this.brier = new Counter({ name: 'vbstream_serve_brier_total', help: 'Sum of the Brier scores (p - y)^2 of the served binary predictions whose label arrived; / outcomes_total{outcome="labelled"}: the mean.', registers });
    this.squaredError = new Counter({ name: 'vbstream_serve_squared_error_total', help: 'Sum of (y - mean)^2 of the served non-binary predictions whose label arrived; / outcomes_total{outcome="labelled"}: the mean.', registers });
    this.calibration = new Histogram({ name: 'vbstream_serve_predicted_probability', help: 'Served p(y=1) by the label that followed (0 or 1): per bin, outcome="1" count / all count is the observed frequency.', labelNames: ['outcome'], buckets: [...METRIC_BUCKETS.predictedProbability], registers });
    this.calibrationError = new Gauge({ name: 'vbstream_serve_expected_calibration_error', help: 'Expected calibration error of the served binary predictions whose label arrived: sum over ten equal bins of n_b/N |mean label - mean p|.', registers });
    this.delay = new Histogram({ name: 'vbstream_serve_label_delay_seconds', help: 'From a prediction being served to its label reaching the outcomes topic, seconds.', buckets: [0.01, 0.1, 1, 10, 60, 600, 3600, 86_400, 604_800], registers });
    this.pending = new Gauge({ name: 'vbstream_serve_pending_predictions', help: 'Logged predictions awaiting their label at the outcome learner.', registers });
    this.deadLetters = new Counter({ name: 'vbstream_serve_dead_letters_total', help: 'Outcomes and logged predictions sent to the dead-letter topics, by reason.', labelNames: ['reason'], registers });
  }

  /**
   * A served prediction's label arrived: `mean` and `variance` as served (`variance` null where the
   * predictive had none finite), `y` the label, `delaySeconds` from serving to the label.
   */
  recordLabelled(mean: number, variance: number | null, y: number, delaySeconds: number): void {
    this.resolved.inc({ outcome: 'labelled' });
    this.delay.observe(Math.max(0, delaySeconds));
    if (this.task === 'classification') {
      const positive = y === 1;
      const p = positive ? mean : 1 - mean;
      this.logLoss.inc(-Math.log(Math.min(Math.max(p, PROBABILITY_FLOOR), 1 - PROBABILITY_FLOOR)));
      this.brier.inc((1 - p) ** 2);
      this.calibration.observe({ outcome: positive ? '1' : '0' }, mean);
      const bin = this.bins[Math.max(0, METRIC_BUCKETS.predictedProbability.findIndex((edge) => mean <= edge))];
      bin.n++;
      bin.p += mean;
      if (positive) bin.positives++;
      this.calibrationError.set(this.expectedCalibrationError());
      return;
    }
    const error = y - mean;
    this.squaredError.inc(error * error);
    if (variance !== null && variance > 0) this.logLoss.inc(0.5 * Math.log(2 * Math.PI * variance) + (error * error) / (2 * variance));
  }

  /** The expected calibration error over the ten bins of the binary predictions labelled so far (0 before any). */
  expectedCalibrationError(): number {
    const total = this.bins.reduce((sum, bin) => sum + bin.n, 0);
    if (total === 0) return 0;
    return this.bins.reduce((sum, bin) => (bin.n === 0 ? sum : sum + (bin.n / total) * Math.abs(bin.positives / bin.n - bin.p / bin.n)), 0);
  }

  recordExpired(learned: boolean): void {
    this.resolved.inc({ outcome: learned ? 'expired-learned' : 'expired-dropped' });
  }

  recordDeadLetter(reason: DeadLetterReason): void {
    this.deadLetters.inc({ reason });
  }

  setPending(predictions: number): void {
    this.pending.set(predictions);
  }
}
