import { Counter, Gauge, type Registry } from 'prom-client';
import { AccumulatedHistogram } from '../monitoring/accumulated-histogram.js';
import { BucketCounts } from '../monitoring/bucket-counts.js';
import { METRIC_BUCKETS } from '../monitoring/metric-buckets.js';
import type { ServedPosterior } from './served-posterior.js';

/** Requests of one route since the last export: their durations, and how many by status (indexed by the status, 100–999 as Node allows). */
interface RouteRequests {
  readonly route: string;
  readonly durations: BucketCounts;
  readonly statuses: Float64Array;
}

/** Slots of {@link RouteRequests.statuses}: one per status code Node writes (100–999). */
const STATUSES = 1_000;

/**
 * The scoring service's metrics in a registry (e.g. `PipelineMetrics.registry`): requests by route
 * and status and their durations (from the `HttpEdge`), rows predicted, predicted probabilities (a
 * binary family's p(y = 1), a histogram), the served posterior — its version as a label of
 * `vbstream_serve_posterior_info`, the records behind it and its age (seconds since its snapshot
 * was made, at scrape time) — posteriors swapped in, snapshots refused by reason, and outcomes
 * written. What a request records goes to plain counters and `BucketCounts` (a request's path is
 * the hot one; prom-client's labelled `inc`/`observe` cost microseconds each) and into the
 * Prometheus series when they are read. The live page reads its scoring panel from these series.
 */
export class ServeMetrics {
  private readonly requests: Counter<'route' | 'status'>;
  private readonly requestDuration: AccumulatedHistogram<'route'>;
  private readonly predictions: Counter;
  private readonly probability: AccumulatedHistogram<never>;
  /** Since the last export: requests by route (durations, counts by status), rows predicted, predicted probabilities. */
  private readonly pendingRequests = new Map<string, RouteRequests>();
  /** The route of the last request recorded: the next is usually the same, found with no lookup. */
  private lastRoute: RouteRequests | undefined;
  private pendingPredictions = 0;
  private readonly pendingProbability = new BucketCounts(METRIC_BUCKETS.predictedProbability);
  private readonly info: Gauge<'version' | 'family'>;
  private readonly records: Gauge;
  private readonly swaps: Counter;
  private readonly refused: Counter<'reason'>;
  private readonly outcomes: Counter;
  private served: ServedPosterior | undefined;

  constructor(registry: Registry, now: () => number = Date.now) {
    const registers = [registry];
    const pull = (): void => this.pull();
    this.requests = new Counter({ name: 'vbstream_serve_http_requests_total', help: 'Requests to the scoring service, by route (other: no route matched) and HTTP status.', labelNames: ['route', 'status'], registers, collect: pull });
    this.requestDuration = new AccumulatedHistogram({ name: 'vbstream_serve_http_request_duration_seconds', help: 'Time from a request to the scoring service arriving to its answer (predictions logged when a predictions topic is set), by route, seconds.', labelNames: ['route'], buckets: METRIC_BUCKETS.httpRequestSeconds, beforeExport: pull });
    registry.registerMetric(this.requestDuration);
    this.predictions = new Counter({ name: 'vbstream_serve_predictions_total', help: 'Rows predicted and answered (a batch counts its rows).', registers, collect: pull });
    this.probability = new AccumulatedHistogram<never>({ name: 'vbstream_serve_predicted_probability', help: 'Predicted p(y = 1) of the rows answered (binary families).', labelNames: [], buckets: METRIC_BUCKETS.predictedProbability, beforeExport: pull });
    registry.registerMetric(this.probability);
    this.probability.add({}, this.pendingProbability); // its series exists from the start, at zero
    this.info = new Gauge({ name: 'vbstream_serve_posterior_info', help: 'The posterior served: 1 for its version and family.', labelNames: ['version', 'family'], registers });
    this.records = new Gauge({ name: 'vbstream_serve_posterior_records', help: 'Records behind the posterior served.', registers });
    const age: Gauge = new Gauge({
      name: 'vbstream_serve_posterior_age_seconds', help: 'Seconds since the snapshot of the posterior served was made, at scrape time (absent before one is served).', registers,
      collect: () => {
        age.reset();
        if (this.served !== undefined && Number.isFinite(this.served.createdAt)) age.set(Math.max(0, (now() - this.served.createdAt) / 1000));
      },
    });
    this.swaps = new Counter({ name: 'vbstream_serve_swaps_total', help: 'Posteriors swapped in (the first included).', registers });
    this.refused = new Counter({ name: 'vbstream_serve_refused_snapshots_total', help: 'Snapshots refused (the last good posterior kept serving), by reason: family, dim, or what else failed.', labelNames: ['reason'], registers });
    this.outcomes = new Counter({ name: 'vbstream_serve_outcomes_total', help: 'Outcomes written to the outcomes topic (POST /outcome).', registers });
  }

  /** A request answered by the `HttpEdge`: no allocation once its route has been seen, and no lookup when it is the last one's. */
  recordRequest(route: string, status: number, seconds: number): void {
    let requests = this.lastRoute;
    if (requests?.route !== route) {
      requests = this.pendingRequests.get(route);
      if (requests === undefined) this.pendingRequests.set(route, (requests = { route, durations: new BucketCounts(METRIC_BUCKETS.httpRequestSeconds), statuses: new Float64Array(STATUSES) }));
      this.lastRoute = requests;
    }
    requests.durations.observe(seconds);
    requests.statuses[status]++;
  }

  /** Rows answered; when `probabilities` (a binary family), their means are predicted p(y = 1). */
  recordPredictions(predictions: readonly { readonly mean: number }[], probabilities: boolean): void {
    this.pendingPredictions += predictions.length;
    if (probabilities) for (const { mean } of predictions) this.pendingProbability.observe(mean);
  }

  recordSwap(posterior: ServedPosterior): void {
    this.served = posterior;
    this.swaps.inc();
    this.info.reset();
    this.info.set({ version: posterior.version, family: posterior.model.family }, 1);
    this.records.set(posterior.model.recordsSeen);
  }

  recordRefused(reason: string): void {
    this.refused.inc({ reason });
  }

  recordOutcome(): void {
    this.outcomes.inc();
  }

  /** Moves what was recorded since the last export into the Prometheus series. */
  private pull(): void {
    for (const [route, { durations, statuses }] of this.pendingRequests) {
      for (let status = 0; status < STATUSES; status++) {
        const requests = statuses[status];
        if (requests === 0) continue;
        this.requests.inc({ route, status: String(status) }, requests);
        statuses[status] = 0;
      }
      if (durations.count === 0) continue;
      this.requestDuration.add({ route }, durations);
      durations.clear();
    }
    if (this.pendingPredictions > 0) this.predictions.inc(this.pendingPredictions);
    this.pendingPredictions = 0;
    this.probability.add({}, this.pendingProbability);
    this.pendingProbability.clear();
  }
}
