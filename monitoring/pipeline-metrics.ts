import type { EventEmitter } from 'node:events';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AccumulatedHistogram } from './accumulated-histogram.js';
import type { CoefficientSummary } from './coefficient-summary.js';
import { isMetricDeltaMessage } from './is-metric-delta-message.js';
import type { MetricDelta } from './metric-delta.js';
import { METRIC_BUCKETS } from './metric-buckets.js';
import { ModelMetricsRecorder } from './model-metrics-recorder.js';
import type { Readiness } from './readiness.js';

/** Options of `PipelineMetrics`. */
export interface PipelineMetricsOptions {
  /** Value of the `pipeline` label on every series; default `"default"`. */
  readonly pipeline?: string | undefined;
  /** Export prom-client's Node default metrics (prefixed `vbstream_`), event-loop lag included; default true. */
  readonly defaultMetrics?: boolean | undefined;
  /** Records in the prequential window of the main-thread recorders; default 1,000. */
  readonly window?: number | undefined;
  /** Clock for the snapshot age, ms since the epoch; default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

type ModelLabel = 'model' | 'partition';
const MODEL_LABELS: readonly ModelLabel[] = ['model', 'partition'];

/**
 * Every vbstream metric, on a prom-client `Registry` of its own (never the global one), with the
 * `pipeline` label on all series. The main thread owns it. Model metrics are recorded on plain
 * arrays by `ModelMetricsRecorder`s — the ones `model()` hands out here, drained at each scrape, and
 * the ones in worker threads, whose deltas arrive through `applyDelta` / `attach` — so the learn
 * path never touches prom-client. Pipeline-wide metrics (dead letters, consumer lag, worker queue)
 * are set directly. `metrics()` renders the Prometheus text format.
 */
export class PipelineMetrics {
  readonly registry = new Registry();
  private readonly local = new Map<string, ModelMetricsRecorder>();
  private readonly snapshotTimes = new Map<string, { model: string; partition: string; timeMs: number }>();
  private readonly latestCoefficients = new Map<string, { model: string; partition: string; summary: CoefficientSummary }>();
  private readonly now: () => number;
  /** Records in the prequential window of the main-thread recorders. */
  readonly window: number;
  private readonly records: Counter<ModelLabel | 'status' | 'reason'>;
  private readonly updateDuration: AccumulatedHistogram<ModelLabel>;
  private readonly minibatchSize: AccumulatedHistogram<ModelLabel>;
  private readonly calibration: AccumulatedHistogram<ModelLabel | 'outcome'>;
  private readonly objective: Gauge<ModelLabel>;
  private readonly logLoss: Gauge<ModelLabel>;
  private readonly brierScore: Gauge<ModelLabel>;
  private readonly meanNorm: Gauge<ModelLabel>;
  private readonly logDetCovariance: Gauge<ModelLabel>;
  private readonly traceCovariance: Gauge<ModelLabel>;
  private readonly conditionNumber: Gauge<ModelLabel>;
  private readonly effectiveDataSize: Gauge<ModelLabel>;
  private readonly snapshots: Counter<ModelLabel>;
  private readonly snapshotSize: Gauge<ModelLabel>;
  private readonly deadLetters: Counter<'reason'>;
  private readonly combinerSkipped: Counter<'reason'>;
  private readonly consumerLag: Gauge<'topic' | 'partition'>;
  private readonly deadLetterShare: Gauge<'topic' | 'partition'>;
  private readonly brokersReachable: Gauge<'topic'>;
  private readonly readinesses: Readiness[] = [];
  private readonly queueDepth: Gauge;
  private readonly workerBusySeconds: Counter;
  private readonly httpRequests: Counter<'route' | 'status'>;
  private readonly httpDuration: Histogram<'route'>;

  constructor(options: PipelineMetricsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.window = options.window ?? 1000;
    this.registry.setDefaultLabels({ pipeline: options.pipeline ?? 'default' });
    const registers = [this.registry];
    const pull = (): void => this.pull();
    const modelGauge = (name: string, help: string): Gauge<ModelLabel> => new Gauge({ name, help, labelNames: MODEL_LABELS, registers, collect: pull });
    const histogram = <T extends string>(name: string, help: string, labelNames: readonly T[], buckets: readonly number[]): AccumulatedHistogram<T> => {
      const metric = new AccumulatedHistogram<T>({ name, help, labelNames, buckets, beforeExport: pull });
      this.registry.registerMetric(metric);
      return metric;
    };

    this.records = new Counter({ name: 'vbstream_records_total', help: 'Records processed, by status (learned, rejected) and, for rejected ones, the reason.', labelNames: [...MODEL_LABELS, 'status', 'reason'], registers, collect: pull });
    this.updateDuration = histogram('vbstream_update_duration_seconds', 'Wall time of one model update call (one record or one minibatch), seconds.', MODEL_LABELS, METRIC_BUCKETS.updateDurationSeconds);
    this.minibatchSize = histogram('vbstream_minibatch_size', 'Records per model update call.', MODEL_LABELS, METRIC_BUCKETS.minibatchSize);
    this.objective = modelGauge('vbstream_objective', "The family's objective after the latest update (ELBO, bound or DLM loss).");
    this.logLoss = modelGauge('vbstream_prequential_log_loss', 'Prequential (test-then-train) log-loss, nats per record, mean over the recent window.');
    this.brierScore = modelGauge('vbstream_prequential_brier_score', 'Prequential (test-then-train) Brier score, mean over the recent window.');
    this.calibration = histogram('vbstream_calibration_predicted_probability', 'Prequential predicted p(y=1), by the outcome that followed (0 or 1): per bin, outcome="1" count / all count is the observed frequency.', [...MODEL_LABELS, 'outcome'], METRIC_BUCKETS.predictedProbability);
    this.meanNorm = modelGauge('vbstream_posterior_mean_norm', 'Euclidean norm of the posterior mean of the parameters.');
    this.logDetCovariance = modelGauge('vbstream_posterior_log_det_covariance', 'log det of the posterior covariance.');
    this.traceCovariance = modelGauge('vbstream_posterior_trace_covariance', 'Trace of the posterior covariance.');
    this.conditionNumber = modelGauge('vbstream_posterior_condition_number', 'Condition number (largest / smallest eigenvalue) of the posterior covariance.');
    this.effectiveDataSize = modelGauge('vbstream_posterior_effective_data_size', 'Records the posterior represents (data size, or effective size after forgetting).');
    this.snapshots = new Counter({ name: 'vbstream_snapshots_total', help: 'Posterior snapshots made durable.', labelNames: MODEL_LABELS, registers, collect: pull });
    this.snapshotSize = modelGauge('vbstream_snapshot_size_bytes', 'Size of the latest snapshot, bytes.');
    const snapshotAge: Gauge<ModelLabel> = new Gauge({
      name: 'vbstream_snapshot_age_seconds', help: 'Seconds since the latest snapshot, computed at scrape time.', labelNames: MODEL_LABELS, registers,
      collect: (): void => {
        pull();
        const now = this.now();
        for (const { model, partition, timeMs } of this.snapshotTimes.values()) snapshotAge.set({ model, partition }, Math.max(0, (now - timeMs) / 1000));
      },
    });
    this.deadLetters = new Counter({ name: 'vbstream_dead_letters_total', help: 'Records sent to the dead-letter sink, by reason.', labelNames: ['reason'], registers });
    this.combinerSkipped = new Counter({ name: 'vbstream_combiner_skipped_partitions_total', help: 'Partition snapshots the posterior combiner could not merge (another topic or partition, another family or dimension, unreadable), by error kind.', labelNames: ['reason'], registers });
    this.consumerLag = new Gauge({ name: 'vbstream_kafka_consumer_lag', help: 'Kafka consumer lag in messages: the end offset minus the next offset to learn (records not learned yet), per topic and assigned partition.', labelNames: ['topic', 'partition'], registers });
    this.deadLetterShare = new Gauge({ name: 'vbstream_dead_letter_share', help: 'Share of the records of the last completed window (deadLetterAlarm.window records) of a partition that went to the dead letters.', labelNames: ['topic', 'partition'], registers });
    const readinesses = this.readinesses;
    const readinessCondition: Gauge<'condition'> = new Gauge({
      name: 'vbstream_ready', help: 'Readiness conditions of the service (1 met, 0 not; /readyz answers 200 when all are 1), computed at scrape time.', labelNames: ['condition'], registers,
      collect() {
        readinessCondition.reset();
        for (const readiness of readinesses) for (const [condition, met] of readiness.states()) readinessCondition.set({ condition }, met ? 1 : 0);
      },
    });
    this.brokersReachable = new Gauge({ name: 'vbstream_kafka_brokers_reachable', help: 'Per topic learned: 1 while the Kafka brokers answer, 0 during an outage (ridden out for maxOutageMs).', labelNames: ['topic'], registers });
    this.queueDepth = new Gauge({ name: 'vbstream_worker_queue_depth', help: 'Records waiting for the model (accepted from the source, not yet learned).', registers });
    this.workerBusySeconds = new Counter({ name: 'vbstream_worker_busy_seconds_total', help: 'Seconds worker threads spent running tasks (rate = busy workers).', registers, collect: pull });
    this.httpDuration = new Histogram({ name: 'vbstream_http_request_duration_seconds', help: 'Time from a request to the metrics endpoint arriving to its answer, by route, seconds.', labelNames: ['route'], buckets: [...METRIC_BUCKETS.httpRequestSeconds], registers });
    this.httpRequests = new Counter({ name: 'vbstream_http_requests_total', help: 'Requests to the metrics endpoint (/metrics, /healthz, /readyz, the live page), by route (other: no route matched) and HTTP status.', labelNames: ['route', 'status'], registers });
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'vbstream_' });
  }

  /**
   * The main-thread recorder of `model` on `partition` (created on first use; its series start at
   * zero). Record on it from the learn path; the registry drains it at each scrape.
   */
  model(model: string, partition = ''): ModelMetricsRecorder {
    const key = `${model}\u0000${partition}`;
    let recorder = this.local.get(key);
    if (recorder === undefined) {
      recorder = new ModelMetricsRecorder(model, partition, { window: this.window });
      this.local.set(key, recorder);
      this.records.inc({ model, partition, status: 'learned', reason: '' }, 0);
    }
    return recorder;
  }

  /** Applies one model's delta (from a worker's `MetricDeltaMessage`, or a drained recorder). */
  applyDelta(delta: MetricDelta): void {
    const labels = { model: delta.model, partition: delta.partition };
    this.records.inc({ ...labels, status: 'learned', reason: '' }, delta.learned);
    for (const [reason, count] of Object.entries(delta.rejected)) this.records.inc({ ...labels, status: 'rejected', reason }, count);
    if (delta.updateDuration.count > 0) this.updateDuration.add(labels, delta.updateDuration);
    if (delta.minibatchSize.count > 0) this.minibatchSize.add(labels, delta.minibatchSize);
    if (delta.calibration.negative.count > 0) this.calibration.add({ ...labels, outcome: '0' }, delta.calibration.negative);
    if (delta.calibration.positive.count > 0) this.calibration.add({ ...labels, outcome: '1' }, delta.calibration.positive);
    if (delta.snapshots > 0) this.snapshots.inc(labels, delta.snapshots);
    if (delta.workerBusySeconds > 0) this.workerBusySeconds.inc(delta.workerBusySeconds);
    if (delta.objective !== undefined && Number.isFinite(delta.objective)) this.objective.set(labels, delta.objective);
    if (delta.logLoss !== undefined) this.logLoss.set(labels, delta.logLoss);
    if (delta.brierScore !== undefined) this.brierScore.set(labels, delta.brierScore);
    const posterior = delta.posterior;
    if (posterior !== undefined) {
      this.meanNorm.set(labels, posterior.meanNorm);
      if (posterior.logDetCovariance !== undefined) this.logDetCovariance.set(labels, posterior.logDetCovariance);
      if (posterior.traceCovariance !== undefined) this.traceCovariance.set(labels, posterior.traceCovariance);
      if (posterior.conditionNumber !== undefined) this.conditionNumber.set(labels, posterior.conditionNumber);
      this.effectiveDataSize.set(labels, posterior.effectiveDataSize);
    }
    if (delta.coefficients !== undefined) this.latestCoefficients.set(`${delta.model}\u0000${delta.partition}`, { ...labels, summary: delta.coefficients });
    if (delta.snapshotSizeBytes !== undefined) this.snapshotSize.set(labels, delta.snapshotSizeBytes);
    if (delta.snapshotTimeMs !== undefined) this.snapshotTimes.set(`${delta.model}\u0000${delta.partition}`, { ...labels, timeMs: delta.snapshotTimeMs });
  }

  /**
   * Applies every `MetricDeltaMessage` that `source` (a `Worker`, or a piscina pool, which re-emits
   * its workers' messages) emits as `'message'`; other messages are ignored. Returns the detacher.
   */
  attach(source: EventEmitter): () => void {
    const listener = (message: unknown): void => {
      if (isMetricDeltaMessage(message)) for (const delta of message.deltas) this.applyDelta(delta);
    };
    source.on('message', listener);
    return () => {
      source.off('message', listener);
    };
  }

  /** Records sent to the dead-letter sink for `reason`. */
  recordDeadLetter(reason: string, records = 1): void {
    this.deadLetters.inc({ reason }, records);
  }

  /** A partition snapshot the posterior combiner skipped, by error kind. */
  recordCombinerSkipped(reason: string): void {
    this.combinerSkipped.inc({ reason });
  }

  /** Consumer lag (messages) of a topic partition. */
  setConsumerLag(topic: string, partition: number | string, lag: number): void {
    this.consumerLag.set({ topic, partition: String(partition) }, lag);
  }

  /** A partition no longer assigned here: its lag and dead-letter share series go. */
  removeConsumerLag(topic: string, partition: number | string): void {
    this.consumerLag.remove({ topic, partition: String(partition) });
    this.deadLetterShare.remove({ topic, partition: String(partition) });
  }

  /** The dead-letter share of a partition's last window of records. */
  setDeadLetterShare(topic: string, partition: number | string, share: number): void {
    this.deadLetterShare.set({ topic, partition: String(partition) }, share);
  }

  /** Exports the conditions of `readiness` as `vbstream_ready{condition}` (read at each scrape). */
  observeReadiness(readiness: Readiness): void {
    this.readinesses.push(readiness);
  }

  /** Whether the Kafka brokers of the learner of `topic` answer (false during an outage); no series until a Kafka learner sets it. */
  setBrokersReachable(topic: string, reachable: boolean): void {
    this.brokersReachable.set({ topic }, reachable ? 1 : 0);
  }

  /** Records waiting for the model: accepted from the source, not yet learned (the backpressure queue). */
  setQueueDepth(depth: number): void {
    this.queueDepth.set(depth);
  }

  /** Worker time measured on the main thread (e.g. from a pool's task run times). */
  workerBusy(seconds: number): void {
    this.workerBusySeconds.inc(seconds);
  }

  /** A request to the metrics endpoint, by route and status, and how long it took. */
  recordRequest(route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ route, status: String(status) });
    this.httpDuration.observe({ route }, seconds);
  }

  /** The latest largest-coefficient summary of each model and partition (not exported to Prometheus: the live view's). */
  coefficients(): { model: string; partition: string; summary: CoefficientSummary }[] {
    this.pull();
    return [...this.latestCoefficients.values()];
  }

  /** Content type of `metrics()`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** All metrics in the Prometheus text format. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  private pull(): void {
    for (const recorder of this.local.values()) {
      const delta = recorder.drain();
      if (delta !== undefined) this.applyDelta(delta);
    }
  }
}
