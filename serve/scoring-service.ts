import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpEdge, type HttpJsonRoute, type HttpReply, type HttpRoute, type HttpServiceOptions } from '../monitoring/http-edge.js';
import { LiveView } from '../monitoring/live-view.js';
import { PipelineMetrics } from '../monitoring/pipeline-metrics.js';
import { Readiness } from '../monitoring/readiness.js';
import { ConfigError } from '../src/core/config-error.js';
import { maxAbsInputOf } from '../src/core/max-abs-input-of.js';
import { VbstreamError } from '../src/core/vbstream-error.js';
import { getFamily } from '../src/registry.js';
import { answerJson } from './answer-json.js';
import { HotSwappedPosterior } from './hot-swapped-posterior.js';
import type { LoggedPrediction } from './logged-prediction.js';
import { parseOutcome, type Outcome } from './parse-outcome.js';
import type { PosteriorSource } from './posterior-source.js';
import { PredictRequestParser } from './predict-request-parser.js';
import type { Prediction } from './prediction.js';
import type { PredictionLog } from './prediction-log.js';
import type { ScoringEvent } from './scoring-event.js';
import { ServeMetrics } from './serve-metrics.js';

/** Options of {@link ScoringService}: where it listens and its limits (`HttpServiceOptions`; port default 8080, body limit 1 MiB), and what it serves. */
export interface ScoringServiceOptions extends HttpServiceOptions {
  /** Where the posteriors come from. */
  readonly source: PosteriorSource;
  /** The family served (a snapshot of another is refused); default: the first snapshot's. */
  readonly family?: string;
  /** The features served (a snapshot of another width is refused); default: the length of `features`, else the first snapshot's. */
  readonly dim?: number;
  /** The features' names by position (the pipeline schema's), for `{"features": {...}}` requests. */
  readonly features?: readonly string[];
  /** Bound on |feature| and |label| (`InputLimits.maxAbsInput`, the pipeline's `schema.maxAbsInput`); default 1e12. */
  readonly maxAbsInput?: number;
  /** Interval level of a request that gives none; default 0.9. */
  readonly level?: number;
  /** Most rows of one batch request; default 1,000. */
  readonly maxRows?: number;
  /** Where every answer is logged before it is returned (and outcomes written); none: answers are not logged. */
  readonly log?: PredictionLog;
  /** Prediction ids are `${instanceId}-${n}`; default 12 random hex digits, new at every start. */
  readonly instanceId?: string;
  /** The registry the service's metrics go to; default a new one (`pipeline` label `title`). */
  readonly metrics?: PipelineMetrics;
  /** Title of the live page and `pipeline` label of a new registry; default `serve`. */
  readonly title?: string;
  /** Told about every posterior swapped in and every snapshot refused. */
  readonly onEvent?: (event: ScoringEvent) => void;
}

const GET: readonly string[] = ['GET', 'HEAD'];

/** The answer of a `POST /predict`. */
type Answer = Prediction | { predictions: Prediction[] };

/** A 200 with `answer` as JSON text ({@link answerJson}), which the edge sends as it is. */
const ok = (answer: Answer): HttpReply => ({ status: 200, body: answerJson(answer), contentType: 'application/json; charset=utf-8' });

/**
 * Real-time scoring over hot-swapped posteriors, on the `HttpEdge` (one error boundary, limits,
 * deadlines, a `Host` allow-list, requests counted and timed):
 * - `POST /predict` `{"x": [...]}`, `{"features": {...}}` or `{"rows": [...]}` (see
 *   `PredictRequestParser`; `level` optional) → 200 a {@link Prediction} per row (`{"predictions":
 *   [...]}` for `rows`), each logged first when a {@link PredictionLog} is set; 503 (retriable,
 *   `Retry-After`) before a posterior is loaded or when the log cannot be written.
 * - `POST /outcome` `{"predictionId", "y"}` (with a log that takes outcomes) → 202 once written.
 * - `GET /healthz` (200 while it serves), `GET /readyz` (200 once a posterior is loaded and, with a
 *   log, while the brokers take the writes; else 503 naming what is pending), `GET /metrics`
 *   (Prometheus text: {@link ServeMetrics}, readiness, Node's defaults) and the live page at `/`.
 *
 * Bad input answers 400 with `{"error": {kind, message, reason, location, retriable}}`, the location
 * naming the field; a body over `maxBodyBytes` 413. Posteriors come from `source` into a
 * {@link HotSwappedPosterior}: a newer one is swapped in atomically, a snapshot of another family or
 * width is refused (one `refused` event) and the last good one keeps serving. Stateless: any number
 * may run behind a load balancer.
 */
export class ScoringService {
  readonly instanceId: string;
  readonly posterior: HotSwappedPosterior;
  readonly metrics: PipelineMetrics;
  readonly readiness: Readiness;
  private readonly serveMetrics: ServeMetrics;
  private readonly live: LiveView;
  private readonly edge: HttpEdge;
  private readonly maxAbsInput: number;
  private parser: PredictRequestParser | undefined;
  private count = 0;

  constructor(private readonly options: ScoringServiceOptions) {
    const { log, features } = options;
    this.instanceId = options.instanceId ?? randomUUID().replaceAll('-', '').slice(0, 12);
    this.maxAbsInput = maxAbsInputOf(options.maxAbsInput);
    const level = options.level ?? 0.9;
    if (!(level > 0 && level < 1)) throw new ConfigError('level must be between 0 and 1 (exclusive)', { field: 'level', value: level });
    const maxRows = options.maxRows ?? 1_000;
    if (!Number.isInteger(maxRows) || maxRows < 1) throw new ConfigError('maxRows must be a positive integer', { field: 'maxRows', value: maxRows });
    if (options.family !== undefined) getFamily(options.family);
    const dim = options.dim ?? features?.length;
    if (features !== undefined && dim !== features.length) throw new ConfigError(`${features.length} feature names for dim ${dim}`, { field: 'features', value: features.length });
    if (dim !== undefined) this.parser = new PredictRequestParser({ dim, features, maxAbsInput: this.maxAbsInput, maxRows, level });
    this.metrics = options.metrics ?? new PipelineMetrics({ pipeline: options.title ?? 'serve' });
    this.serveMetrics = new ServeMetrics(this.metrics.registry);
    this.readiness = new Readiness(log === undefined ? ['posterior-loaded'] : ['posterior-loaded', 'predictions-logged']);
    this.metrics.observeReadiness(this.readiness);
    this.posterior = new HotSwappedPosterior({
      family: options.family, dim, maxAbsInput: this.maxAbsInput,
      onSwap: (posterior) => {
        this.parser ??= new PredictRequestParser({ dim: posterior.model.dim, features, maxAbsInput: this.maxAbsInput, maxRows, level });
        this.readiness.set('posterior-loaded');
        this.serveMetrics.recordSwap(posterior);
        const { version, origin, createdAt, model } = posterior;
        options.onEvent?.({ type: 'posterior', version, family: model.family, dim: model.dim, records: model.recordsSeen, createdAt: new Date(createdAt).toISOString(), origin });
      },
      onRefuse: (error) => {
        this.serveMetrics.recordRefused(error.location.field ?? error.kind);
        options.onEvent?.({ type: 'refused', origin: error.location.source ?? '', reason: error.reason, field: error.location.field });
      },
    });
    this.live = new LiveView({ metrics: this.metrics, title: options.title ?? 'serve', readiness: this.readiness });
    const routes: { [path: string]: HttpRoute | HttpJsonRoute } = {
      '/predict': {
        methods: ['POST'],
        answer: (body) => {
          const answered = this.answer(body);
          return answered instanceof Promise ? answered.then(ok) : ok(answered);
        },
      },
      '/healthz': { methods: GET, handle: () => ({ status: 200, body: { status: 'ok', instance: this.instanceId } }) },
      '/readyz': {
        methods: GET,
        handle: () => {
          const pending = this.refreshReadiness();
          const version = this.posterior.current?.version;
          return pending.length === 0
            ? { status: 200, body: { status: 'ready', instance: this.instanceId, version } }
            : { status: 503, body: { status: 'not-ready', pending, instance: this.instanceId, version }, headers: { 'retry-after': '1' } };
        },
      },
      '/metrics': {
        methods: GET,
        handle: async () => {
          this.refreshReadiness();
          return { status: 200, body: await this.metrics.metrics(), contentType: this.metrics.contentType };
        },
      },
    };
    if (log?.outcome !== undefined) routes['/outcome'] = { methods: ['POST'], answer: async (body) => ({ status: 202, body: await this.outcome(body) }) };
    for (const path of this.live.paths) routes[path] = { methods: GET, handle: async ({ request, response }) => { await this.live.handle(request, response, path); return undefined; } };
    this.edge = new HttpEdge({ maxBodyBytes: 1_048_576, ...options, port: options.port ?? 8080, routes, errors: 'json', requests: this.serveMetrics, index: 'try POST /predict, GET /healthz, /readyz, /metrics or the live page at /' });
  }

  /** Starts following the source (the posterior there is, if any, is loaded first) and listening; resolves to the port. `onFatal` is told when the source stops for good. */
  async start(onFatal: (error: Error) => void = () => undefined): Promise<number> {
    this.refreshReadiness();
    await this.options.source.start(this.posterior, onFatal);
    const port = await this.edge.listen();
    this.live.start();
    return port;
  }

  /** Stops accepting requests, answers those in flight (within their deadline), stops following the source and stops the log (after what it holds is written). */
  async stop(): Promise<void> {
    this.live.close();
    await this.edge.close();
    await this.options.source.stop();
    await this.options.log?.stop();
  }

  /** Answers one request (e.g. from a server of the caller's); never rejects. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    return this.edge.handle(request, response);
  }

  /**
   * Predicts a `POST /predict` body with the posterior served now (read once: one posterior answers
   * every row) and, with a log, resolves once the predictions are logged. Throws a typed error for
   * a bad body, a retriable `io` error before a posterior is loaded or when the log fails.
   */
  async predict(body: { readonly [key: string]: unknown }): Promise<Answer> {
    return this.answer(body);
  }

  /** {@link predict}'s work: the answer at once without a log (no promise on the request's path), else once the predictions are logged. */
  private answer(body: { readonly [key: string]: unknown }): Answer | Promise<Answer> {
    const served = this.posterior.current;
    if (served === undefined) throw new VbstreamError('io', 'no posterior loaded yet', { source: this.options.source.description }, true);
    const { model, version } = served;
    const request = this.parser!.parse(body);
    const { rows, count, level } = request;
    const dim = model.dim;
    const predictions: Prediction[] = new Array(count);
    let binary = false;
    for (let i = 0; i < count; i++) {
      const predictive = model.predict(rows, i * dim);
      binary = predictive.kind === 'bernoulli';
      predictions[i] = { mean: predictive.mean, variance: predictive.variance, interval: predictive.interval(level), level, version, predictionId: `${this.instanceId}-${++this.count}` };
    }
    const answered = (): Answer => {
      this.serveMetrics.recordPredictions(predictions, binary);
      return request.batch ? { predictions } : predictions[0];
    };
    const log = this.options.log;
    if (log === undefined) return answered();
    const predictedAt = Date.now();
    const logged: LoggedPrediction[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const p = predictions[i];
      const x: number[] = new Array(dim);
      for (let j = 0; j < dim; j++) x[j] = rows[i * dim + j];
      logged[i] = { predictionId: p.predictionId, x, version, mean: p.mean, variance: p.variance, interval: p.interval, level, predictedAt, instance: this.instanceId, family: model.family, dim };
    }
    return log.log(logged).then(answered);
  }

  /** Writes a `POST /outcome` body to the log's outcomes topic and resolves once it is durable. */
  async outcome(body: { readonly [key: string]: unknown }): Promise<Outcome> {
    const log = this.options.log;
    if (log?.outcome === undefined) throw new ConfigError('this service has no outcomes topic: it takes no outcomes', { field: 'outcomesTopic' });
    const served = this.posterior.current;
    const family = this.options.family ?? served?.model.family;
    if (family === undefined) throw new VbstreamError('io', 'no posterior loaded yet: the label coding is not known', { source: this.options.source.description }, true);
    const outcome = parseOutcome(body, getFamily(family).task, this.maxAbsInput);
    await log.outcome(outcome.predictionId, outcome.y);
    this.serveMetrics.recordOutcome();
    return outcome;
  }

  /** Updates the log's readiness from its broker problem; returns the conditions not met, explained. */
  private refreshReadiness(): string[] {
    const log = this.options.log;
    if (log !== undefined) {
      const problem = log.brokerProblem;
      this.readiness.set('predictions-logged', problem === undefined, problem);
    }
    return this.readiness.explain();
  }
}
