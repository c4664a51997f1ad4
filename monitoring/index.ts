export { PipelineMetrics, type PipelineMetricsOptions } from './pipeline-metrics.js';
export { MetricsServer, type MetricsServerOptions } from './metrics-server.js';
export { Readiness } from './readiness.js';
export { ModelMonitor, type LearnedBatch } from './model-monitor.js';
export { ModelMetricsRecorder, type ModelMetricsRecorderOptions } from './model-metrics-recorder.js';
export { METRIC_BUCKETS } from './metric-buckets.js';
