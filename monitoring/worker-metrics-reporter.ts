import type { MetricDelta, MetricDeltaMessage } from './metric-delta.js';
import { ModelMetricsRecorder, type ModelMetricsRecorderOptions } from './model-metrics-recorder.js';

/** Where a worker posts its messages: `parentPort` of `node:worker_threads`, or any `MessagePort`. */
export interface MetricsPort {
  postMessage(message: unknown, transferList?: readonly ArrayBuffer[]): void;
}

/**
 * The worker side of metrics: one `ModelMetricsRecorder` per model and partition the worker runs,
 * and `flush()` posting everything that changed as one `MetricDeltaMessage` (bucket arrays
 * transferred, not copied) to the main thread, whose `PipelineMetrics` applies it. Call `flush()`
 * after each task or on a timer; it posts nothing when nothing changed. Imports no prom-client.
 */
export class WorkerMetricsReporter {
  private readonly recorders = new Map<string, ModelMetricsRecorder>();

  constructor(private readonly port: MetricsPort, private readonly options: ModelMetricsRecorderOptions = {}) {}

  /** The recorder of `model` on `partition` (created on first use). */
  recorder(model: string, partition = ''): ModelMetricsRecorder {
    const key = `${model}\u0000${partition}`;
    let recorder = this.recorders.get(key);
    if (recorder === undefined) {
      recorder = new ModelMetricsRecorder(model, partition, this.options);
      this.recorders.set(key, recorder);
    }
    return recorder;
  }

  /** Posts the deltas of every recorder that changed; returns how many deltas were posted. */
  flush(): number {
    const deltas: MetricDelta[] = [];
    for (const recorder of this.recorders.values()) {
      const delta = recorder.drain();
      if (delta !== undefined) deltas.push(delta);
    }
    if (deltas.length === 0) return 0;
    const transfer = deltas.flatMap((d) => [d.updateDuration, d.minibatchSize, d.calibration.negative, d.calibration.positive].map((h) => h.counts.buffer as ArrayBuffer));
    const message: MetricDeltaMessage = { type: 'vbstream-metrics', deltas };
    this.port.postMessage(message, transfer);
    return deltas.length;
  }
}
