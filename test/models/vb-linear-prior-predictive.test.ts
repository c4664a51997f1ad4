import { describe, expect, it } from 'vitest';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import type { StudentTPredictive } from '../../src/core/predictive/student-t-predictive.js';
import { createModel } from '../../src/registry.js';
import { studentTQuantile } from '../../src/special/student-t-quantile.js';
import { MemoryPosteriorSource } from '../../serve/memory-posterior-source.js';
import { ScoringService } from '../../serve/scoring-service.js';

const D = 3;
const X = Float64Array.of(1, 0.4, -0.7);
const RECORDS = [[1, 0.2, 0.3, 1.5], [1, -1, 0.5, -0.4], [1, 0.7, -0.2, 2.1], [1, 0.1, 1.1, 0.3]];

/** A default vb-linear model fed the first `n` records, one per update. */
function fedModel(n: number): ReturnType<typeof createModel<'vb-linear'>> {
  const model = createModel('vb-linear', D);
  for (const row of RECORDS.slice(0, n)) model.update({ x: Float64Array.from(row.slice(0, D)), y: Float64Array.of(row[D]), n: 1, d: D });
  return model;
}

/** The mean, variance and interval of one proper Student-t: finite, and each from the same distribution. */
function expectProper(p: StudentTPredictive): void {
  expect(Number.isFinite(p.mean)).toBe(true);
  expect(p.mean).toBe(p.location);
  expect(p.df).toBeGreaterThan(2);
  expect(Number.isFinite(p.variance)).toBe(true);
  expect(p.variance).toBeGreaterThan(0);
  expect(p.variance).toBeCloseTo(p.df / ((p.df - 2) * p.precision), 12);
  const [lo, hi] = p.interval(0.9);
  expect(hi - p.location).toBeCloseTo(studentTQuantile(0.95, p.df) / Math.sqrt(p.precision), 12);
  expect(lo).toBeCloseTo(2 * p.location - hi, 12);
  expect(Number.isFinite(p.logProb(0.5))).toBe(true);
}

describe('vb-linear prior predictive and the first records (issue 28, item 3)', () => {
  it('the empty model answers a proper, finite predictive: the prior location 0, 2a_N floored at 3 with E[τ] kept', () => {
    const model = fedModel(0);
    const p = model.predict(X);
    expectProper(p);
    expect(p.mean).toBe(0);
    expect(p.df).toBe(3);
    // E[τ] = a₀/b₀ = 100 and V = I/E[α] = I/100: precision 100/(1 + xᵀx/100)
    expect(p.precision).toBeCloseTo(100 / (1 + (1 + 0.16 + 0.49) / 100), 10);
  });

  it('after one and two records (2a_N = 1.02, 2.02) the same floor; from the third (3.02) the exact predictive', () => {
    for (const n of [1, 2]) {
      const p = fedModel(n).predict(X);
      expectProper(p);
      expect(p.df).toBe(3);
    }
    for (const n of [3, 4]) {
      const model = fedModel(n);
      const p = model.predict(X);
      expectProper(p);
      expect(p.df).toBeCloseTo(2 * (0.01 + n / 2), 12);
    }
  });

  it('a scoring service over an empty vb-linear posterior answers finite numbers, not nulls', async () => {
    const source = new MemoryPosteriorSource();
    source.publish(fedModel(0), 'empty');
    const service = new ScoringService({ source, family: 'vb-linear', port: 0, metrics: new PipelineMetrics({ defaultMetrics: false }) });
    const base = `http://127.0.0.1:${await service.start()}`;
    try {
      const response = await fetch(`${base}/predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: Array.from(X), level: 0.9 }) });
      expect(response.status).toBe(200);
      const reply = await response.json() as { mean: unknown; variance: unknown; interval: unknown[] };
      expect(reply.mean).toBe(0);
      expect(typeof reply.variance).toBe('number');
      expect(Number.isFinite(reply.variance)).toBe(true);
      expect(reply.interval.every((v) => typeof v === 'number' && Number.isFinite(v))).toBe(true);
    } finally {
      await service.stop();
    }
  });
});
