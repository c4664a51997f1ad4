import type { PipelineConfig } from './pipeline-config.js';
import { PipelineMonitor } from './pipeline-monitor.js';
import type { PipelineIo, PipelineResult } from './pipeline-result.js';
import { runFilePipeline } from './run-file-pipeline.js';
import { runKafkaPipeline } from './run-kafka-pipeline.js';

/**
 * Runs a declared pipeline: a file, stdin or synthetic source (`runFilePipeline`) or a Kafka topic
 * (`runKafkaPipeline`), both on the same runtime: records → minibatch → learn (in a worker, or
 * in-process) → snapshots → checkpoint. Unless `config.metrics` is false, /metrics, /healthz and
 * /readyz and the live page (/) are served while it runs; the first line on `out` is the metrics URL.
 */
export async function runPipeline(config: PipelineConfig, io: PipelineIo): Promise<PipelineResult> {
  const monitor = config.metrics === false ? undefined : await PipelineMonitor.start(config.metrics, config.model.family);
  if (monitor !== undefined) io.out.write(`metrics: ${monitor.url} (also /healthz, /readyz; live view: ${monitor.pageUrl})\n`);
  try {
    const { source } = config;
    return source.type === 'kafka' ? await runKafkaPipeline({ ...config, source }, io, monitor) : await runFilePipeline({ ...config, source }, io, monitor);
  } finally {
    await monitor?.close();
  }
}
