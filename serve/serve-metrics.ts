import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { METRIC_BUCKETS } from '../monitoring/metric-buckets.js';
import type { ServedPosterior } from './served-posterior.js';

/**
 * The scoring service's metrics in a registry (e.g. `PipelineMetrics.registry`): requests by route
 * and status and their durations (from the `HttpEdge`), rows predicted, predicted probabilities (a
 * binary family's p(y = 1), a histogram), the served posterior — its version as a label of
 * `vbstream_serve_posterior_info`, the records behind it and its age (seconds since its snapshot
 * was made, at scrape time) — posteriors swapped in, snapshots refused by reason, and outcomes
 * written. The live page reads its scoring panel from these series.
 */
export class ServeMetrics {
  private readonly requests: Counter<'route' | 'status'>;
  private readonly requestDuration: Histogram<'route'>;
  private readonly predictions: Counter;
  private readonly probability: Histogram;
  private readonly info: Gauge<'version' | 'family'>;
  private readonly records: Gauge;
  private readonly swaps: Counter;
  private readonly refused: Counter<'reason'>;
  private readonly outcomes: Counter;
  private served: ServedPosterior | undefined;

  constructor(registry: Registry, now: () => number = Date.now) {
    const registers = [registry];
    this.requests = new Counter({ name: 'vbstream_serve_http_requests_total', help: 'Requests to the scoring service, by route (other: no route matched) and HTTP status.', labelNames: ['route', 'status'], registers });
    this.requestDuration = new Histogram({ name: 'vbstream_serve_http_request_duration_seconds', help: 'Time from a request to the scoring service arriving to its answer (predictions logged when a predictions topic is set), by route, seconds.', labelNames: ['route'], buckets: [...METRIC_BUCKETS.httpRequestSeconds], registers });
    this.predictions = new Counter({ name: 'vbstream_serve_predictions_total', help: 'Rows predicted and answered (a batch counts its rows).', registers });
    this.probability = new Histogram({ name: 'vbstream_serve_predicted_probability', help: 'Predicted p(y = 1) of the rows answered (binary families).', buckets: [...METRIC_BUCKETS.predictedProbability], registers });
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

  /** A request answered by the `HttpEdge`. */
  recordRequest(route: string, status: number, seconds: number): void {
    this.requests.inc({ route, status: String(status) });
    this.requestDuration.observe({ route }, seconds);
  }

  /** `count` rows answered; with `probabilities`, their predicted p(y = 1) (`count` of them from `means`). */
  recordPredictions(count: number, means: readonly number[] | undefined): void {
    this.predictions.inc(count);
    if (means !== undefined) for (let i = 0; i < count; i++) this.probability.observe(means[i]);
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
}
