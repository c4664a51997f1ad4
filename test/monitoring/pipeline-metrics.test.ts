import { register as globalRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { Readiness } from '../../monitoring/readiness.js';
import { parsePrometheusText, sampleValue, type Sample } from '../helpers/prometheus-text.js';

const scrape = async (metrics: PipelineMetrics): Promise<Sample[]> => parsePrometheusText(await metrics.metrics());
const series = { model: 'vb-logit-online', partition: '3' };

describe('PipelineMetrics', () => {
  it('counts learned records, and rejected ones by reason', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const recorder = metrics.model('vb-logit-online', '3');
    expect(sampleValue(await scrape(metrics), 'vbstream_records_total', { ...series, status: 'learned' })).toBe(0);
    recorder.recordLearned(1, 1e-5);
    recorder.recordLearned(50, 2e-4);
    recorder.recordRejected('input');
    recorder.recordRejected('input', 2);
    recorder.recordRejected('shape');
    let samples = await scrape(metrics);
    expect(sampleValue(samples, 'vbstream_records_total', { ...series, status: 'learned' })).toBe(51);
    expect(sampleValue(samples, 'vbstream_records_total', { ...series, status: 'rejected', reason: 'input' })).toBe(3);
    expect(sampleValue(samples, 'vbstream_records_total', { ...series, status: 'rejected', reason: 'shape' })).toBe(1);
    recorder.recordLearned(4, 1e-5);
    samples = await scrape(metrics);
    expect(sampleValue(samples, 'vbstream_records_total', { ...series, status: 'learned' })).toBe(55);
    expect(sampleValue(samples, 'vbstream_records_total', { ...series, status: 'rejected', reason: 'input' })).toBe(3);
  });

  it('observes update latency and minibatch size per update call in the right buckets', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const recorder = metrics.model('vb-logit-online', '3');
    recorder.recordLearned(1, 3e-6);
    recorder.recordLearned(100, 0.02);
    recorder.recordLearned(100, 20);
    const samples = await scrape(metrics);
    const latency = (le: string): number => sampleValue(samples, 'vbstream_update_duration_seconds_bucket', { ...series, le });
    expect(latency('0.0000025')).toBe(0);
    expect(latency('0.000005')).toBe(1);
    expect(latency('0.01')).toBe(1);
    expect(latency('0.025')).toBe(2);
    expect(latency('10')).toBe(2);
    expect(latency('+Inf')).toBe(3);
    expect(sampleValue(samples, 'vbstream_update_duration_seconds_count', series)).toBe(3);
    expect(sampleValue(samples, 'vbstream_update_duration_seconds_sum', series)).toBeCloseTo(20.020003, 9);
    expect(sampleValue(samples, 'vbstream_minibatch_size_bucket', { ...series, le: '1' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_minibatch_size_bucket', { ...series, le: '50' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_minibatch_size_bucket', { ...series, le: '100' })).toBe(3);
    expect(sampleValue(samples, 'vbstream_minibatch_size_sum', series)).toBe(201);
  });

  it('keeps the latest objective and ignores a non-finite one', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const recorder = metrics.model('vb-logit', '3');
    expect((await scrape(metrics)).some((s) => s.name === 'vbstream_objective')).toBe(false);
    recorder.setObjective(-120.5);
    recorder.setObjective(-110.25);
    expect(sampleValue(await scrape(metrics), 'vbstream_objective', { model: 'vb-logit' })).toBe(-110.25);
    recorder.setObjective(Number.NaN);
    expect(sampleValue(await scrape(metrics), 'vbstream_objective', { model: 'vb-logit' })).toBe(-110.25);
  });

  it('reports prequential log-loss and Brier score over the recent window only', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false, window: 2 });
    const recorder = metrics.model('vb-logit-online', '3');
    recorder.recordPrediction(0.01, 1);
    recorder.recordPrediction(0.8, 1);
    recorder.recordPrediction(0.3, 0);
    const samples = await scrape(metrics);
    expect(sampleValue(samples, 'vbstream_prequential_log_loss', series)).toBeCloseTo((-Math.log(0.8) - Math.log(0.7)) / 2, 12);
    expect(sampleValue(samples, 'vbstream_prequential_brier_score', series)).toBeCloseTo((0.2 ** 2 + 0.3 ** 2) / 2, 12);
    recorder.recordPrediction(0.5, 0, 0.25);
    expect(sampleValue(await scrape(metrics), 'vbstream_prequential_log_loss', series)).toBeCloseTo((-Math.log(0.7) + 0.25) / 2, 12);
  });

  it('bins predicted probabilities by outcome for calibration', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const recorder = metrics.model('vb-logit-online', '3');
    recorder.recordPrediction(0.85, 1);
    recorder.recordPrediction(0.95, 1);
    recorder.recordPrediction(0.85, 0);
    recorder.recordPrediction(0.15, -1);
    const samples = await scrape(metrics);
    const bucket = (outcome: string, le: string): number => sampleValue(samples, 'vbstream_calibration_predicted_probability_bucket', { ...series, outcome, le });
    expect([bucket('1', '0.8'), bucket('1', '0.9'), bucket('1', '1')]).toEqual([0, 1, 2]);
    expect([bucket('0', '0.1'), bucket('0', '0.2'), bucket('0', '0.8'), bucket('0', '0.9')]).toEqual([0, 1, 1, 2]);
    expect(sampleValue(samples, 'vbstream_calibration_predicted_probability_sum', { ...series, outcome: '1' })).toBeCloseTo(1.8, 12);
    expect(sampleValue(samples, 'vbstream_calibration_predicted_probability_count', { ...series, outcome: '0' })).toBe(2);
  });

  it('exports the posterior summary, leaving out what the family does not report', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    metrics.model('vb-linear', '3').setPosteriorSummary({ meanNorm: 2.5, traceCovariance: 0.125, effectiveDataSize: 1000 });
    const samples = await scrape(metrics);
    const labels = { model: 'vb-linear', partition: '3' };
    expect(sampleValue(samples, 'vbstream_posterior_mean_norm', labels)).toBe(2.5);
    expect(sampleValue(samples, 'vbstream_posterior_trace_covariance', labels)).toBe(0.125);
    expect(sampleValue(samples, 'vbstream_posterior_effective_data_size', labels)).toBe(1000);
    expect(samples.some((s) => s.name === 'vbstream_posterior_log_det_covariance')).toBe(false);
    expect(samples.some((s) => s.name === 'vbstream_posterior_condition_number')).toBe(false);
    metrics.model('vb-linear', '3').setPosteriorSummary({ meanNorm: 2, logDetCovariance: -40, traceCovariance: 0.1, conditionNumber: 350, effectiveDataSize: 1200 });
    const later = await scrape(metrics);
    expect(sampleValue(later, 'vbstream_posterior_log_det_covariance', labels)).toBe(-40);
    expect(sampleValue(later, 'vbstream_posterior_condition_number', labels)).toBe(350);
  });

  it('counts snapshots, keeps the latest size and computes the age at scrape time', async () => {
    let now = 1_000_000;
    const metrics = new PipelineMetrics({ defaultMetrics: false, now: () => now });
    const recorder = metrics.model('vb-logit-online', '3');
    recorder.recordSnapshot(2048, 990_000);
    recorder.recordSnapshot(4096, 995_000);
    let samples = await scrape(metrics);
    expect(sampleValue(samples, 'vbstream_snapshots_total', series)).toBe(2);
    expect(sampleValue(samples, 'vbstream_snapshot_size_bytes', series)).toBe(4096);
    expect(sampleValue(samples, 'vbstream_snapshot_age_seconds', series)).toBe(5);
    now += 2500;
    samples = await scrape(metrics);
    expect(sampleValue(samples, 'vbstream_snapshot_age_seconds', series)).toBe(7.5);
    expect(sampleValue(samples, 'vbstream_snapshots_total', series)).toBe(2);
  });

  it('sets the pipeline-wide metrics: dead letters, consumer lag, queue depth, worker busy time', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    metrics.recordDeadLetter('input');
    metrics.recordDeadLetter('input');
    metrics.recordDeadLetter('shape', 3);
    metrics.setConsumerLag('events', 0, 12);
    metrics.setConsumerLag('events', 1, 40);
    metrics.setConsumerLag('events', 0, 7);
    metrics.setQueueDepth(5);
    metrics.workerBusy(0.5);
    metrics.model('vb-logit-online', '3').workerBusy(0.25);
    const samples = await scrape(metrics);
    expect(sampleValue(samples, 'vbstream_dead_letters_total', { reason: 'input' })).toBe(2);
    expect(sampleValue(samples, 'vbstream_dead_letters_total', { reason: 'shape' })).toBe(3);
    expect(sampleValue(samples, 'vbstream_kafka_consumer_lag', { topic: 'events', partition: '0' })).toBe(7);
    expect(sampleValue(samples, 'vbstream_kafka_consumer_lag', { topic: 'events', partition: '1' })).toBe(40);
    expect(sampleValue(samples, 'vbstream_worker_queue_depth')).toBe(5);
    expect(sampleValue(samples, 'vbstream_worker_busy_seconds_total')).toBe(0.75);
  });

  it('the brokers\' reachability, the dead-letter share per partition, and a revoked partition\'s series removed', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    metrics.setBrokersReachable('events', true);
    metrics.setConsumerLag('events', 0, 12);
    metrics.setConsumerLag('events', 1, 3);
    metrics.setDeadLetterShare('events', 0, 0.25);
    metrics.setDeadLetterShare('events', 1, 1);
    metrics.setBrokersReachable('events', false);
    metrics.removeConsumerLag('events', 1);
    const samples = await scrape(metrics);
    expect(sampleValue(samples, 'vbstream_kafka_brokers_reachable', { topic: 'events' })).toBe(0);
    expect((await scrape(new PipelineMetrics({ defaultMetrics: false }))).filter((s) => s.name === 'vbstream_kafka_brokers_reachable')).toEqual([]); // none without a Kafka learner
    expect(sampleValue(samples, 'vbstream_dead_letter_share', { topic: 'events', partition: '0' })).toBe(0.25);
    expect(samples.filter((s) => s.labels.partition === '1')).toEqual([]);
  });

  it('exports the conditions of an observed readiness at each scrape', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const readiness = new Readiness(['model-restored', 'brokers-reachable']);
    metrics.observeReadiness(readiness);
    readiness.set('model-restored');
    let samples = await scrape(metrics);
    expect([sampleValue(samples, 'vbstream_ready', { condition: 'model-restored' }), sampleValue(samples, 'vbstream_ready', { condition: 'brokers-reachable' })]).toEqual([1, 0]);
    readiness.set('brokers-reachable');
    readiness.set('model-restored', false);
    samples = await scrape(metrics);
    expect([sampleValue(samples, 'vbstream_ready', { condition: 'model-restored' }), sampleValue(samples, 'vbstream_ready', { condition: 'brokers-reachable' })]).toEqual([0, 1]);
  });

  it('labels every series with the pipeline, names them by the conventions, and stays off the global registry', async () => {
    const metrics = new PipelineMetrics({ pipeline: 'orders' });
    metrics.model('vb-logit-online').recordLearned(1, 1e-5);
    const samples = await scrape(metrics);
    expect(samples.length).toBeGreaterThan(20);
    for (const sample of samples) {
      expect(sample.name).toMatch(/^vbstream_[a-z0-9_]+$/);
      expect(sample.labels.pipeline).toBe('orders');
    }
    expect(samples.some((s) => s.name === 'vbstream_nodejs_eventloop_lag_seconds')).toBe(true);
    const own = (await metrics.registry.getMetricsAsJSON()).filter((m) => !/^vbstream_(process|nodejs)_/.test(m.name));
    expect(own.length).toBe(25);
    for (const metric of own) {
      if (String(metric.type) === 'counter') expect(metric.name).toMatch(/_total$/);
      else expect(metric.name).not.toMatch(/_total$/);
      if (metric.name.includes('duration') || metric.name.includes('age') || metric.name.includes('lag_seconds')) expect(metric.name).toMatch(/_seconds(_total)?$/);
    }
    expect(await globalRegistry.metrics()).not.toContain('vbstream_');
  });
});
