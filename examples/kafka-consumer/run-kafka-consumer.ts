import type { Writable } from 'node:stream';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parsePipelineConfig } from '../../cli/pipeline-config.js';
import type { PipelineResult } from '../../cli/pipeline-result.js';
import { runPipeline } from '../../cli/run-pipeline.js';

/**
 * The smallest pipeline from a Kafka topic to snapshots and metrics: `vbstream kafka:produce`
 * writes `records` seeded synthetic logistic records (d = 5) round-robin to a 2-partition topic,
 * then `vbstream run`'s Kafka pipeline learns them (vb-logit-online per partition, in worker
 * threads), snapshots to `<topic>.snapshots`, serves /metrics on 127.0.0.1 (`metricsPort`, 0 = a
 * free port) and stops once every partition has caught up. `cli` is the compiled `vbstream` entry.
 */
export async function runKafkaConsumer(options: { brokers: string; topic: string; records: number; metricsPort: number; cli: string; out: Writable }): Promise<PipelineResult> {
  const { out } = options;
  const produced = await promisify(execFile)(process.execPath, [options.cli, 'kafka:produce', '--brokers', options.brokers, '--topic', options.topic, '--partitions', '2', '--synthetic', String(options.records), '--dim', '5', '--seed', '7']);
  out.write(produced.stdout);
  const config = parsePipelineConfig({
    source: { type: 'kafka', brokers: [options.brokers], topic: options.topic, groupId: `${options.topic}-learners`, dim: 5, untilCaughtUp: true },
    model: { family: 'vb-logit-online' },
    minibatch: { size: 500 },
    snapshots: { everyRecords: 5000 },
    progress: { everyMs: 500 },
    metrics: { port: options.metricsPort, pipeline: 'kafka-consumer' },
  }, 'examples/kafka-consumer');
  return runPipeline(config, { out, err: process.stderr, resume: false, onSource: () => undefined });
}
