import { describe, expect, it, vi } from 'vitest';
import { ModelMonitor } from '../../monitoring/model-monitor.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { applyBatch } from '../../operators/apply-batch.js';
import { makeBatch } from '../../src/core/make-batch.js';
import { getFamily } from '../../src/registry.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';

const labels = { model: 'vb-logit', partition: '' };

describe('ModelMonitor', () => {
  it('records a learn call: records, latency, size, objective, each scored row with calibration; refused rows are skipped', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const monitor = new ModelMonitor(metrics.model('vb-logit'));
    const model = getFamily('vb-logit').create(2);
    const batch = makeBatch([[1, 0.5], [1, Number.NaN], [1, -2], [1, 1]], [1, 0, 0, 1]);
    const outcome = applyBatch(model, batch, Float64Array.of(1, 2, 3, 4), true);
    expect(outcome.rejected.map((r) => r.index)).toEqual([1]);
    monitor.learned(model, outcome, batch.y);
    const samples = parsePrometheusText(await metrics.metrics());
    expect(sampleValue(samples, 'vbstream_records_total', { ...labels, status: 'learned' })).toBe(3);
    expect(sampleValue(samples, 'vbstream_minibatch_size_sum', labels)).toBe(3);
    expect(sampleValue(samples, 'vbstream_update_duration_seconds_sum', labels)).toBeCloseTo(outcome.durationMs / 1000, 12);
    expect(sampleValue(samples, 'vbstream_objective', labels)).toBe(outcome.stats.objective);
    expect(sampleValue(samples, 'vbstream_calibration_predicted_probability_count', { ...labels, outcome: '1' })).toBe(2);
    expect(sampleValue(samples, 'vbstream_calibration_predicted_probability_count', { ...labels, outcome: '0' })).toBe(1);
    const expectedLogLoss = (outcome.scores!.logLoss[0] + outcome.scores!.logLoss[2] + outcome.scores!.logLoss[3]) / 3;
    expect(sampleValue(samples, 'vbstream_prequential_log_loss', labels)).toBeCloseTo(expectedLogLoss, 12);
    expect(sampleValue(samples, 'vbstream_posterior_condition_number', labels)).toBe(model.summary().conditionNumber);
  });

  it('takes the posterior summary (an O(d³) eigendecomposition) at most once per interval, the first call included', () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    let now = 0;
    const monitor = new ModelMonitor(metrics.model('vb-linear'), 1000, () => now);
    const model = getFamily('vb-linear').create(2);
    const summary = vi.spyOn(model, 'summary');
    const batch = makeBatch([[1, 0.5], [1, -1]], [0.3, -0.2]);
    for (const t of [0, 10, 999, 1000, 1500, 2001]) {
      now = t;
      monitor.learned(model, applyBatch(model, batch, Float64Array.of(1, 2), false), batch.y);
    }
    expect(summary).toHaveBeenCalledTimes(3);
  });

  it('records the log-loss of real labels without calibration', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const monitor = new ModelMonitor(metrics.model('vb-linear'));
    const model = getFamily('vb-linear').create(2);
    const batch = makeBatch([[1, 0.5], [1, -1]], [0.3, -0.2]);
    const outcome = applyBatch(model, batch, Float64Array.of(1, 2), true);
    monitor.learned(model, outcome, batch.y);
    const samples = parsePrometheusText(await metrics.metrics());
    const vbLinear = { model: 'vb-linear', partition: '' };
    expect(sampleValue(samples, 'vbstream_prequential_log_loss', vbLinear)).toBeCloseTo((outcome.scores!.logLoss[0] + outcome.scores!.logLoss[1]) / 2, 12);
    expect(samples.some((s) => s.name.startsWith('vbstream_calibration_predicted_probability'))).toBe(false);
    expect(samples.some((s) => s.name === 'vbstream_prequential_brier_score')).toBe(false);
  });

  it('a posterior whose summary throws does not fail the learn call it follows: counts are kept, the gauges keep their last values (issue 14, item 4)', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const monitor = new ModelMonitor(metrics.model('vb-logit'), 0);
    const model = getFamily('vb-logit').create(2);
    const batch = makeBatch([[1, 0.5], [1, -2]], [1, 0]);
    const outcome = applyBatch(model, batch, Float64Array.of(1, 2), false);
    monitor.learned(model, outcome, batch.y);
    const broken = Object.assign(Object.create(model) as typeof model, { summary: () => { throw new Error('eigendecomposition failed'); } });
    expect(() => monitor.learned(broken, outcome, batch.y)).not.toThrow();
    const samples = parsePrometheusText(await metrics.metrics());
    expect(sampleValue(samples, 'vbstream_records_total', { ...labels, status: 'learned' })).toBe(4);
    expect(sampleValue(samples, 'vbstream_posterior_mean_norm', labels)).toBe(model.summary().meanNorm);
  });
});
