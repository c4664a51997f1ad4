import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { isMetricDeltaMessage } from '../../monitoring/is-metric-delta-message.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { repoRoot } from '../helpers/reference.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';

const reporterUrl = pathToFileURL(join(repoRoot, 'dist/monitoring/worker-metrics-reporter.js')).href;

/** A worker (compiled reporter, no prom-client) that records what the main thread asks for and flushes. */
const workerSource = `
const { parentPort } = require('node:worker_threads');
import(${JSON.stringify(reporterUrl)}).then(({ WorkerMetricsReporter }) => {
  const reporter = new WorkerMetricsReporter(parentPort, { window: 10 });
  parentPort.on('message', (command) => {
    if (command === 'round-1') {
      const p0 = reporter.recorder('vb-logit-online', '0');
      p0.recordLearned(10, 0.002);
      p0.recordLearned(10, 0.003);
      p0.recordRejected('input');
      p0.recordPrediction(0.9, 1);
      p0.recordPrediction(0.2, 0);
      p0.setPosteriorSummary({ meanNorm: 1.25, logDetCovariance: -12, traceCovariance: 0.5, effectiveDataSize: 20 });
      p0.recordSnapshot(512, Date.now());
      p0.workerBusy(0.005);
      reporter.recorder('vb-logit-online', '1').recordLearned(5, 0.001);
      parentPort.postMessage({ type: 'not-metrics', note: 'left alone' });
      parentPort.postMessage({ posted: reporter.flush() });
    } else if (command === 'round-2') {
      reporter.recorder('vb-logit-online', '0').recordLearned(7, 0.002);
      const first = reporter.flush();
      parentPort.postMessage({ posted: first, idle: reporter.flush() });
    }
  });
  parentPort.postMessage({ ready: true });
});
`;

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.terminate();
  worker = undefined;
});

function nextReply(w: Worker, key: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Record<string, unknown>): void => {
      if (key in message) {
        w.off('message', onMessage);
        resolve(message);
      }
    };
    w.on('message', onMessage);
    w.once('error', reject);
  });
}

describe('worker metric deltas', () => {
  it('a real worker_threads Worker records on plain arrays and the main thread applies its deltas', async () => {
    worker = new Worker(workerSource, { eval: true });
    const metrics = new PipelineMetrics({ defaultMetrics: false, pipeline: 'w' });
    const seen: unknown[] = [];
    worker.on('message', (m) => seen.push(m));
    const detach = metrics.attach(worker);
    await nextReply(worker, 'ready');

    worker.postMessage('round-1');
    expect((await nextReply(worker, 'posted')).posted).toBe(2);
    let samples = parsePrometheusText(await metrics.metrics());
    const p0 = { model: 'vb-logit-online', partition: '0' };
    expect(sampleValue(samples, 'vbstream_records_total', { ...p0, status: 'learned' })).toBe(20);
    expect(sampleValue(samples, 'vbstream_records_total', { model: 'vb-logit-online', partition: '1', status: 'learned' })).toBe(5);
    expect(sampleValue(samples, 'vbstream_records_total', { ...p0, status: 'rejected', reason: 'input' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_update_duration_seconds_bucket', { ...p0, le: '0.0025' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_update_duration_seconds_bucket', { ...p0, le: '0.005' })).toBe(2);
    expect(sampleValue(samples, 'vbstream_prequential_brier_score', p0)).toBeCloseTo((0.01 + 0.04) / 2, 12);
    expect(sampleValue(samples, 'vbstream_calibration_predicted_probability_count', { ...p0, outcome: '1' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_posterior_log_det_covariance', p0)).toBe(-12);
    expect(sampleValue(samples, 'vbstream_snapshot_size_bytes', p0)).toBe(512);
    expect(sampleValue(samples, 'vbstream_worker_busy_seconds_total')).toBeCloseTo(0.005, 12);
    const metricsMessage = seen.find(isMetricDeltaMessage);
    expect(metricsMessage?.deltas[0].updateDuration.counts).toBeInstanceOf(Float64Array);
    expect(seen.some((m) => (m as { type?: string }).type === 'not-metrics')).toBe(true);

    worker.postMessage('round-2');
    const reply = await nextReply(worker, 'idle');
    expect([reply.posted, reply.idle]).toEqual([1, 0]);
    samples = parsePrometheusText(await metrics.metrics());
    expect(sampleValue(samples, 'vbstream_records_total', { ...p0, status: 'learned' })).toBe(27);
    expect(sampleValue(samples, 'vbstream_update_duration_seconds_count', p0)).toBe(3);

    detach();
    worker.postMessage('round-2');
    await nextReply(worker, 'idle');
    samples = parsePrometheusText(await metrics.metrics());
    expect(sampleValue(samples, 'vbstream_records_total', { ...p0, status: 'learned' })).toBe(27);
  });

  it('tells metrics messages from others and from malformed ones', () => {
    const histogram = { counts: new Float64Array(3), sum: 0, count: 0 };
    const delta = { model: 'm', partition: '', learned: 1, rejected: {}, updateDuration: histogram, minibatchSize: histogram, calibration: { negative: histogram, positive: histogram }, snapshots: 0, workerBusySeconds: 0 };
    expect(isMetricDeltaMessage({ type: 'vbstream-metrics', deltas: [delta] })).toBe(true);
    expect(isMetricDeltaMessage({ type: 'vbstream-metrics', deltas: [{ ...delta, updateDuration: { counts: [0, 0, 0], sum: 0, count: 0 } }] })).toBe(false);
    expect(isMetricDeltaMessage({ type: 'vbstream-metrics', deltas: [{ ...delta, model: 3 }] })).toBe(false);
    expect(isMetricDeltaMessage({ type: 'task-result', deltas: [delta] })).toBe(false);
    expect(isMetricDeltaMessage(null)).toBe(false);
  });

  it('the worker-side modules import no prom-client, directly or through other modules', () => {
    const visit = (file: string, seen: Set<string>): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(join(repoRoot, file), 'utf8');
      expect(text, file).not.toMatch(/from ['"]prom-client['"]/);
      for (const match of text.matchAll(/from '(\.[^']+)\.js'/g)) visit(join(file, '..', `${match[1]}.ts`), seen);
    };
    const seen = new Set<string>();
    visit('monitoring/worker-metrics-reporter.ts', seen);
    expect(seen.has('monitoring/model-metrics-recorder.ts')).toBe(true);
  });
});
