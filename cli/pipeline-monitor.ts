import { endpointUrl } from '../monitoring/endpoint-url.js';
import { LiveView } from '../monitoring/live-view.js';
import { MetricsServer } from '../monitoring/metrics-server.js';
import { ModelMonitor } from '../monitoring/model-monitor.js';
import type { ModelMetricsRecorder } from '../monitoring/model-metrics-recorder.js';
import { PipelineMetrics } from '../monitoring/pipeline-metrics.js';
import { Readiness } from '../monitoring/readiness.js';
import type { UpdateEvent } from '../operators/update-event.js';
import type { WorkerLearner } from '../operators/worker/worker-learner.js';
import { ConfigError } from '../src/core/config-error.js';
import { VbstreamError } from '../src/core/vbstream-error.js';

/**
 * The monitoring of one `vbstream run`: a `PipelineMetrics` registry, the readiness conditions
 * `model-restored` and `source-consuming`, and the `MetricsServer` (/metrics, /healthz, /readyz and
 * the live page at / on `metrics.host`, default 127.0.0.1, answering the `metrics.allowedHosts` too). The model's learn-path metrics are recorded where the model runs: in this thread
 * through {@link modelMonitor}, in a worker through the deltas {@link watch} applies. Rejections
 * and dead letters (every bad record reaches the pipeline's bad-record sink), snapshots and the
 * queue depth are recorded here.
 */
export class PipelineMonitor {
  private readonly detachers: (() => void)[] = [];

  private constructor(readonly metrics: PipelineMetrics, readonly readiness: Readiness, private readonly server: MetricsServer, readonly live: LiveView, readonly port: number, private readonly family: string, readonly host: string) {}

  /**
   * The main-thread recorder of the (unpartitioned) model, created on first use: a Kafka run, whose
   * models are per partition, never makes one, so no empty partition-less series appears.
   */
  private get recorder(): ModelMetricsRecorder {
    return this.metrics.model(this.family);
  }

  /** Starts the endpoint on 127.0.0.1:`port` (0 picks a free port); a port in use is a `ConfigError`. */
  static async start(options: { readonly port: number; readonly host: string; readonly pipeline: string; readonly allowedHosts?: readonly string[] }, family: string): Promise<PipelineMonitor> {
    const metrics = new PipelineMetrics({ pipeline: options.pipeline });
    const readiness = new Readiness(['model-restored', 'source-consuming']);
    metrics.observeReadiness(readiness);
    const live = new LiveView({ metrics, title: options.pipeline, readiness });
    const server = new MetricsServer({ metrics, readiness, port: options.port, host: options.host, allowedHosts: options.allowedHosts, live });
    let port: number;
    try {
      port = await server.listen();
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE' && code !== 'EACCES') throw cause;
      throw new ConfigError(`cannot serve metrics on ${options.host}:${options.port} (${code}): choose another port with metrics.port or --metrics-port (0 picks a free one), or turn metrics off with --no-metrics`, { field: 'metrics.port', value: options.port }, { cause });
    }
    live.start();
    return new PipelineMonitor(metrics, readiness, server, live, port, family, options.host);
  }

  /** The endpoint's URL of the metrics. */
  get url(): string {
    return endpointUrl(this.host, this.port, 'metrics');
  }

  /** The URL of the live page. */
  get pageUrl(): string {
    return endpointUrl(this.host, this.port);
  }

  /** Names of the source's features, for the live page's coefficient legends. */
  describeFeatures(names: readonly string[]): void {
    this.live.setFeatureNames(names);
  }

  /** A monitor recording on this registry, for a model learning in this thread. */
  modelMonitor(): ModelMonitor {
    return new ModelMonitor(this.recorder);
  }

  /** Applies the metric deltas the learner's worker posts (it must record them: `WorkerLearnerOptions.metrics`). */
  watch(learner: WorkerLearner): void {
    this.detachers.push(this.metrics.attach(learner.messages));
  }

  /** A record refused (by the source's parser or the model) and sent to the bad-record sink. */
  rejected(error: unknown): void {
    const reason = error instanceof VbstreamError ? error.kind : 'unknown';
    this.recorder.recordRejected(reason);
    this.metrics.recordDeadLetter(reason);
  }

  /** Per update: the records queued for the model. */
  updated(event: UpdateEvent): void {
    this.metrics.setQueueDepth(event.queueDepth);
  }

  /** A snapshot of `bytes` bytes was made durable. */
  snapshotSaved(bytes: number): void {
    this.recorder.recordSnapshot(bytes);
  }

  /** Stops applying worker deltas and closes the endpoint. */
  async close(): Promise<void> {
    for (const detach of this.detachers.splice(0)) detach();
    await this.server.close();
  }
}
