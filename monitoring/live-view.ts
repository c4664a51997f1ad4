import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MetricValue } from 'prom-client';
import type { BanditLiveSource } from './bandit-live-source.js';
import { defaultFeatureName } from '../src/core/default-feature-name.js';
import { BoundedRing } from './bounded-ring.js';
import { histogramQuantile } from './histogram-quantile.js';
import type { LiveCalibration, LiveFrame, LiveModelFrame, LiveServeFrame } from './live-frame.js';
import type { PipelineMetrics } from './pipeline-metrics.js';
import type { Readiness } from './readiness.js';

/** Options of a `LiveView`. */
export interface LiveViewOptions {
  readonly metrics: PipelineMetrics;
  /** Heading of the page (the pipeline's name); default `vbstream`. */
  readonly title?: string;
  /** Milliseconds between frames (and pushes to the open pages); default 500. */
  readonly everyMs?: number;
  /** Frames kept in memory and sent to a page when it connects; default 600 (5 minutes at 500 ms). */
  readonly history?: number;
  /** Event streams open at once; more are refused with 503. Default 16. */
  readonly maxStreams?: number;
  /** Folder of the page's static files (index.html, live.js, live.css and uPlot's); default `./live/` beside this module. */
  readonly assetDir?: URL;
  /** Arm choices and cumulative reward of a bandit service. */
  readonly bandit?: BanditLiveSource;
  /** The service's readiness: conditions not met are shown at the top of the page with what is wrong. */
  readonly readiness?: Readiness;
  /** Clock of the frames, ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
}

/** The static files of the page, by URL path: file name and content type. Nothing else is served from the folder. */
const ASSETS: { readonly [path: string]: readonly [file: string, type: string] } = {
  '/': ['index.html', 'text/html; charset=utf-8'],
  '/live/live.js': ['live.js', 'text/javascript; charset=utf-8'],
  '/live/live.css': ['live.css', 'text/css; charset=utf-8'],
  '/live/uPlot.iife.min.js': ['uPlot.iife.min.js', 'text/javascript; charset=utf-8'],
  '/live/uPlot.min.css': ['uPlot.min.css', 'text/css; charset=utf-8'],
};

/** Headers of every live-view response: only this origin's scripts and styles, no sniffing, no framing, no referrer. */
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** Bytes a stream may have unsent before the view drops it. */
const MAX_UNREAD_BYTES = 4 * 1024 * 1024;

/** JSON safe to place anywhere: `<`, `>`, `&` and the JavaScript line separators as \u escapes, so no data can close a tag. */
function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

type Values = (MetricValue<string> & { metricName?: string })[];

/** A histogram's `_bucket` series among `values` (those whose labels pass `keep`), summed per bound: bounds ascending (+Inf last, as Infinity) and cumulative counts. */
function cumulativeBuckets(values: Values, keep: (labels: MetricValue<string>['labels']) => boolean = () => true): { upper: number[]; cumulative: number[] } {
  const byBound = new Map<number, number>();
  for (const { labels, value, metricName } of values) {
    if (metricName?.endsWith('_bucket') !== true || !keep(labels)) continue;
    const le = labels.le === '+Inf' ? Infinity : Number(labels.le);
    byBound.set(le, (byBound.get(le) ?? 0) + value);
  }
  const upper = [...byBound.keys()].sort((a, b) => a - b);
  return { upper, cumulative: upper.map((le) => byBound.get(le)!) };
}

const modelKey = (labels: { model?: string | number; partition?: string | number }): string =>
  labels.partition === undefined || labels.partition === '' ? String(labels.model) : `${labels.model} / p${labels.partition}`;

/**
 * The live page served beside /metrics: `GET /` (a static page with its script, styles and the
 * bundled uPlot under /live/) and `GET /events`, a Server-Sent Events stream that first sends the
 * frames in memory (`event: history`) and then one `event: frame` every `everyMs`. A frame
 * ({@link LiveFrame}) is read from the registry of `metrics` — records and their rate, prequential
 * log-loss and Brier score, the calibration histogram, snapshots, dead letters by reason, consumer
 * lag per partition — plus the models' largest coefficients, for a bandit its arms, for a scoring
 * service its requests/s, latency and predicted probabilities, and the readiness conditions not met
 * (shown at the top of the page). The page
 * is read-only: nothing it can send changes state, it never parses data as HTML, and every
 * response carries a `default-src 'self'` Content-Security-Policy and `nosniff`.
 */
export class LiveView {
  private readonly frames: BoundedRing<LiveFrame>;
  private readonly streams = new Set<ServerResponse>();
  private readonly assets = new Map<string, Buffer>();
  private readonly everyMs: number;
  private readonly maxStreams: number;
  private readonly assetDir: URL;
  private readonly now: () => number;
  private featureNames: readonly string[] = [];
  private previous: { t: number; records: Map<string, number> } | undefined;
  /** A scoring service's cumulative `POST /predict` counts at the previous frame: by status, and per latency bucket. */
  private previousServe: { requests: Map<string, number>; latency: number[] } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private sampling: Promise<LiveFrame> | undefined;

  constructor(private readonly options: LiveViewOptions) {
    this.frames = new BoundedRing(options.history ?? 600);
    this.everyMs = options.everyMs ?? 500;
    this.maxStreams = options.maxStreams ?? 16;
    this.assetDir = options.assetDir ?? new URL('./live/', import.meta.url);
    this.now = options.now ?? Date.now;
  }

  /** Names of the model's features, by index (the coefficients panel's legend); unnamed ones show as `defaultFeatureName(i)`, x<i>. */
  setFeatureNames(names: readonly string[]): void {
    this.featureNames = [...names];
  }

  /** Starts taking a frame every `everyMs` (the timer does not keep the process alive). */
  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      void this.sample().catch(() => undefined);
    }, this.everyMs);
    this.timer.unref();
  }

  /** Stops the timer and ends the open event streams. */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const stream of this.streams) stream.end();
    this.streams.clear();
  }

  /** Whether `path` is one of the view's. */
  serves(path: string): boolean {
    return path === '/events' || path === '/favicon.ico' || Object.hasOwn(ASSETS, path);
  }

  /** The view's paths: the page and its files, `/favicon.ico` and `/events`. */
  get paths(): readonly string[] {
    return [...Object.keys(ASSETS), '/favicon.ico', '/events'];
  }

  /** Answers a GET or HEAD of one of the view's paths. */
  async handle(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    if (path === '/events') return this.openStream(request, response);
    if (path === '/favicon.ico') {
      response.writeHead(204, SECURITY_HEADERS);
      response.end();
      return;
    }
    const [file, type] = ASSETS[path];
    let body = this.assets.get(file);
    if (body === undefined) {
      try {
        body = await readFile(new URL(file, this.assetDir));
      } catch {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS });
        response.end(`live view asset ${file} is missing (the build copies it into dist/monitoring/live: npm run build)\n`);
        return;
      }
      this.assets.set(file, body);
    }
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', ...SECURITY_HEADERS });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  /** Takes a frame now: keeps it in the history and pushes it to every open stream. */
  sample(): Promise<LiveFrame> {
    this.sampling ??= this.read().then((frame) => {
      this.frames.push(frame);
      const message = `event: frame\ndata: ${safeJson(frame)}\n\n`;
      for (const stream of this.streams) {
        // A page that does not read its stream is dropped rather than buffered without bound (it reconnects and gets the history).
        if (stream.writableLength > MAX_UNREAD_BYTES) stream.destroy();
        else stream.write(message);
      }
      return frame;
    }).finally(() => {
      this.sampling = undefined;
    });
    return this.sampling;
  }

  /** The frames in memory, oldest first. */
  history(): LiveFrame[] {
    return this.frames.toArray();
  }

  private openStream(request: IncomingMessage, response: ServerResponse): void {
    if (this.streams.size >= this.maxStreams) {
      response.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '10', ...SECURITY_HEADERS });
      response.end(`too many live views open (${this.maxStreams})\n`);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', ...SECURITY_HEADERS });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const meta = { title: this.options.title ?? 'vbstream', everyMs: this.everyMs, window: this.options.metrics.window, capacity: this.frames.capacity };
    response.write(`retry: 2000\nevent: history\ndata: ${safeJson({ ...meta, frames: this.frames.toArray() })}\n\n`);
    this.streams.add(response);
    response.on('close', () => this.streams.delete(response));
  }

  private async read(): Promise<LiveFrame> {
    const { metrics, bandit } = this.options;
    const registry = metrics.registry;
    const values = async (name: string): Promise<Values> => {
      const metric = registry.getSingleMetric(name);
      return metric === undefined ? [] : (await metric.get()).values;
    };
    const t = this.now();
    const models = new Map<string, { model: string; partition: string; records: number; snapshots: number; logLoss?: number; brier?: number; effectiveDataSize?: number; calibration?: LiveCalibration; coefficients?: LiveModelFrame['coefficients'] }>();
    const entry = (labels: Partial<Record<string, string | number>>) => {
      const key = modelKey(labels);
      let model = models.get(key);
      if (model === undefined) {
        model = { model: String(labels.model), partition: String(labels.partition ?? ''), records: 0, snapshots: 0 };
        models.set(key, model);
      }
      return model;
    };
    for (const { labels, value } of await values('vbstream_records_total')) if (labels.status === 'learned') entry(labels).records += value;
    for (const { labels, value } of await values('vbstream_snapshots_total')) entry(labels).snapshots += value;
    for (const { labels, value } of await values('vbstream_prequential_log_loss')) entry(labels).logLoss = value;
    for (const { labels, value } of await values('vbstream_prequential_brier_score')) entry(labels).brier = value;
    for (const { labels, value } of await values('vbstream_posterior_effective_data_size')) entry(labels).effectiveDataSize = value;
    const buckets = new Map<string, { le: number[]; all: number[]; positives: number[] }>();
    for (const { labels, value, metricName } of await values('vbstream_calibration_predicted_probability')) {
      if (metricName !== 'vbstream_calibration_predicted_probability_bucket' || labels.le === '+Inf') continue;
      const key = modelKey(labels);
      entry(labels);
      let bins = buckets.get(key);
      if (bins === undefined) buckets.set(key, (bins = { le: [], all: [], positives: [] }));
      const le = Number(labels.le);
      let i = bins.le.indexOf(le);
      if (i < 0) {
        i = bins.le.push(le) - 1;
        bins.all.push(0);
        bins.positives.push(0);
      }
      bins.all[i] += value;
      if (String(labels.outcome) === '1') bins.positives[i] += value;
    }
    for (const [key, bins] of buckets) {
      const order = bins.le.map((_, i) => i).sort((a, b) => bins.le[a] - bins.le[b]);
      const cumulative = order.map((i) => bins.all[i]);
      const positives = order.map((i) => bins.positives[i]);
      models.get(key)!.calibration = {
        upper: order.map((i) => bins.le[i]),
        count: cumulative.map((c, i) => c - (i === 0 ? 0 : cumulative[i - 1])),
        positives: positives.map((c, i) => c - (i === 0 ? 0 : positives[i - 1])),
      };
    }
    for (const { model, partition, summary } of metrics.coefficients()) {
      entry({ model, partition }).coefficients = { names: summary.index.map((j) => this.featureNames[j] ?? defaultFeatureName(j)), index: summary.index, mean: summary.mean, sd: summary.sd };
    }

    const elapsed = this.previous === undefined ? 0 : (t - this.previous.t) / 1000;
    const frameModels: { [key: string]: LiveModelFrame } = {};
    const records = new Map<string, number>();
    for (const [key, model] of models) {
      const before = this.previous?.records.get(key);
      records.set(key, model.records);
      frameModels[key] = { ...model, throughput: before === undefined || elapsed <= 0 ? 0 : Math.max(0, model.records - before) / elapsed };
    }
    this.previous = { t, records };

    const lag: { [key: string]: number } = {};
    for (const { labels, value } of await values('vbstream_kafka_consumer_lag')) lag[`${labels.topic} / p${labels.partition}`] = value;
    const deadLetters: { [reason: string]: number } = {};
    for (const name of ['vbstream_dead_letters_total', 'vbstream_bandit_dead_letters_total']) {
      for (const { labels, value } of await values(name)) deadLetters[String(labels.reason)] = (deadLetters[String(labels.reason)] ?? 0) + value;
    }
    const queueDepth = (await values('vbstream_worker_queue_depth'))[0]?.value;
    // a decider counts the decisions it logged, the learner those it joined
    const decisions = (await values('vbstream_bandit_decisions_total'))[0]?.value ?? (await values('vbstream_bandit_joined_decisions_total'))[0]?.value;
    let banditFrame: LiveFrame['bandit'];
    if (bandit !== undefined || decisions !== undefined) {
      const choices = bandit?.armChoices();
      banditFrame = {
        decisions,
        arms: choices === undefined ? undefined : { names: choices.map((_, i) => bandit?.armNames?.()[i] ?? `arm ${i}`), choices: [...choices] },
        cumulativeReward: bandit?.cumulativeReward(),
      };
    }
    const notReady = this.options.readiness?.explain();
    const serve = registry.getSingleMetric('vbstream_serve_http_requests_total') === undefined ? undefined : await this.readServe(values, elapsed);
    return { t, models: frameModels, lag, deadLetters, queueDepth, notReady, serve, bandit: banditFrame };
  }

  /** The scoring service's part of a frame, `elapsed` seconds after the previous one (0 for the first). */
  private async readServe(values: (name: string) => Promise<Values>, elapsed: number): Promise<LiveServeFrame> {
    const predict = (labels: MetricValue<string>['labels']): boolean => labels.route === '/predict';
    const requests = new Map<string, number>();
    for (const { labels, value } of await values('vbstream_serve_http_requests_total')) if (predict(labels)) requests.set(String(labels.status), value);
    const latency = cumulativeBuckets(await values('vbstream_serve_http_request_duration_seconds'), predict);
    const before = this.previousServe;
    this.previousServe = { requests, latency: latency.cumulative };
    const requestsPerSecond: { [status: string]: number } = {};
    for (const [status, total] of requests) requestsPerSecond[status] = before === undefined || elapsed <= 0 ? 0 : Math.max(0, total - (before.requests.get(status) ?? 0)) / elapsed;
    // requests per latency bucket since the previous frame (none in the first)
    const recent = latency.cumulative.map((c, i) => (before === undefined ? 0 : c - (before.latency[i] ?? 0)));
    const counts = recent.map((c, i) => c - (i === 0 ? 0 : recent[i - 1]));
    const p50 = histogramQuantile(0.5, latency.upper, counts);
    const p99 = histogramQuantile(0.99, latency.upper, counts);
    const probability = cumulativeBuckets(await values('vbstream_serve_predicted_probability'));
    const finite = probability.upper.filter(Number.isFinite);
    return {
      requestsPerSecond,
      latencyMs: p50 === undefined || p99 === undefined ? undefined : { p50: p50 * 1000, p99: p99 * 1000 },
      predictions: (await values('vbstream_serve_predictions_total'))[0]?.value ?? 0,
      version: (await values('vbstream_serve_posterior_info')).find((v) => v.value === 1)?.labels.version?.toString(),
      probability: { upper: finite, count: finite.map((_, i) => probability.cumulative[i] - (i === 0 ? 0 : probability.cumulative[i - 1])) },
    };
  }
}
