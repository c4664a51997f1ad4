import { describe, expect, it } from 'vitest';
import { StudentTPredictive } from '../../src/core/predictive/student-t-predictive.js';
import { regularizedIncompleteBeta } from '../../src/special/regularized-incomplete-beta.js';
import { studentTCdf } from '../../src/special/student-t-cdf.js';
import { studentTQuantile } from '../../src/special/student-t-quantile.js';

describe('Student-t functions', () => {
  it('incomplete beta at known values', () => {
    expect(regularizedIncompleteBeta(0.5, 2, 2)).toBeCloseTo(0.5, 14);
    expect(regularizedIncompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 14);
    expect(regularizedIncompleteBeta(0.2, 2, 3)).toBeCloseTo(0.1808, 14);
  });

  it('CDF and quantile: t(1) is Cauchy, t(2) closed form, large df tends to the normal', () => {
    expect(studentTCdf(1, 1)).toBeCloseTo(0.75, 13);
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(Math.tan(Math.PI * 0.475), 9);
    const t = 1.7;
    expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 13);
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.959966, 5);
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228138851986, 10);
    for (const df of [0.5, 3, 30, 400]) for (const p of [1e-6, 0.01, 0.3, 0.9, 0.999]) expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 12);
  });

  it('the predictive Student-t has the right moments, density and interval', () => {
    const t = new StudentTPredictive(2, 4, 10);
    expect(t.mean).toBe(2);
    expect(t.variance).toBeCloseTo(10 / (8 * 4), 14);
    const [lo, hi] = t.interval(0.95);
    expect(hi - 2).toBeCloseTo(2.228138851986 / 2, 9);
    expect(lo).toBeCloseTo(4 - hi, 12);
    let mass = 0;
    for (let y = -20; y <= 24; y += 0.001) mass += Math.exp(t.logProb(y)) * 0.001;
    expect(mass).toBeCloseTo(1, 5);
  });
});
