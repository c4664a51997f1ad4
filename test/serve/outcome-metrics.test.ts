import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { OutcomeMetrics } from '../../serve/outcome-metrics.js';

/** The value of the sample `line` (a series with its labels, as exposed) of the registry. */
async function value(registry: Registry, line: string): Promise<number> {
  const found = (await registry.metrics()).split('\n').find((l) => l.startsWith(`${line} `));
  if (found === undefined) throw new Error(`no ${line} in the metrics`);
  return Number(found.slice(line.length + 1));
}

describe('OutcomeMetrics: the served predictions scored once their labels arrive', () => {
  it('binary: log-loss, Brier and the expected calibration error by hand, with −1 as the negative label and p clamped at 1e-15', async () => {
    const registry = new Registry();
    const metrics = new OutcomeMetrics(registry, 'classification');
    metrics.recordLabelled(0.82, 0.1, 1, 2);
    metrics.recordLabelled(0.88, 0.1, -1, 4);
    metrics.recordLabelled(0.1, 0.1, 0, 0.5);
    metrics.recordLabelled(1, 0, 0, 1);
    expect(await value(registry, 'vbstream_serve_log_loss_total')).toBeCloseTo(-Math.log(0.82) - Math.log(0.12) - Math.log(0.9) - Math.log(1e-15), 9);
    expect(await value(registry, 'vbstream_serve_brier_total')).toBeCloseTo(0.18 ** 2 + 0.88 ** 2 + 0.1 ** 2 + 1, 12);
    // Bins (0.8, 0.9]: p 0.82 and 0.88, labels 1 and 0 → |0.5 − 0.85|; (0, 0.1]: |0 − 0.1|; (0.9, 1]: |0 − 1|.
    expect(metrics.expectedCalibrationError()).toBeCloseTo((2 * 0.35 + 0.1 + 1) / 4, 12);
    expect(await value(registry, 'vbstream_serve_expected_calibration_error')).toBeCloseTo((2 * 0.35 + 0.1 + 1) / 4, 12);
    expect(await value(registry, 'vbstream_serve_label_delay_seconds_bucket{le="1"}')).toBe(2);
    expect(await value(registry, 'vbstream_serve_outcomes_total{outcome="labelled"}')).toBe(4);
  });

  it('regression: the log-loss of y under a normal of the served mean and variance, and the squared error; no variance, no log-loss', async () => {
    const registry = new Registry();
    const metrics = new OutcomeMetrics(registry, 'regression');
    metrics.recordLabelled(1.5, 4, 2.5, 1);
    metrics.recordLabelled(0, null, -3, 1);
    expect(await value(registry, 'vbstream_serve_log_loss_total')).toBeCloseTo(0.5 * Math.log(2 * Math.PI * 4) + 1 / 8, 12);
    expect(await value(registry, 'vbstream_serve_squared_error_total')).toBe(1 + 9);
    expect(await value(registry, 'vbstream_serve_brier_total')).toBe(0);
  });
});
