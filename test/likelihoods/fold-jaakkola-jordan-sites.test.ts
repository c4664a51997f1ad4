import { describe, expect, it } from 'vitest';
import { foldJaakkolaJordanSites } from '../../src/likelihoods/fold-jaakkola-jordan-sites.js';
import { jaakkolaJordanExpectedBound } from '../../src/likelihoods/jaakkola-jordan-expected-bound.js';
import { jaakkolaJordanLambda } from '../../src/special/jaakkola-jordan-lambda.js';
import { log1pexp } from '../../src/special/log1pexp.js';
import { sigmoid } from '../../src/special/sigmoid.js';

/** F(m, v) = max over ξ of the record's expected bound = ln σ(ξ*) + (ym − ξ*)/2, ξ* = √(m² + v). */
const envelope = (y: number, m: number, v: number): number => {
  const xi = Math.sqrt(m * m + v);
  return -log1pexp(-xi) + 0.5 * (y * m - xi);
};

/** One record with x = (1): the frozen site's precision h, shift s and bound term c (a Gaussian site s·u − h·u²/2 + c in the logit u). */
function frozen(y: number, m: number, v: number, withMean: boolean): { h: number; s: number; c: number } {
  const target = { precision: new Float64Array(1), shift: new Float64Array(1), labelShift: true, rowScale: new Float64Array(1), bound: 0, ...(withMean ? { mean: Float64Array.of(m) } : {}) };
  foldJaakkolaJordanSites(Float64Array.of(1), Float64Array.of(y), undefined, Float64Array.of(Math.sqrt(m * m + v)), 0, 1, 1, target);
  return { h: target.precision[0], s: target.shift[0], c: target.bound };
}

describe('foldJaakkolaJordanSites', () => {
  it.each([[1, 2.5, 0.3], [-1, 2.5, 0.3], [1, -0.7, 0.05], [-1, 4, 0], [1, 0.2, 1.5]])('y = %d, m = %d, v = %d: without a mean the Jaakkola–Jordan site at ξ; with one the second-order expansion of the re-optimised site', (y, m, v) => {
    const xi = Math.sqrt(m * m + v);
    const lambda = jaakkolaJordanLambda(xi);
    const plain = frozen(y, m, v, false);
    expect(plain.h).toBe(2 * lambda);
    expect(plain.s).toBe(0.5 * y);
    const site = frozen(y, m, v, true);
    const expected = (q: { h: number; s: number; c: number }, mean: number, variance: number) => q.s * mean - 0.5 * q.h * (mean * mean + variance) + q.c;
    // Both equal the record's expected bound at the current (m, v), with the same slope in m.
    expect(expected(plain, m, v)).toBeCloseTo(jaakkolaJordanExpectedBound(0.5 * y, m, v, xi), 12);
    expect(expected(site, m, v)).toBeCloseTo(envelope(y, m, v), 12);
    const step = 1e-4;
    const slope = (envelope(y, m + step, v) - envelope(y, m - step, v)) / (2 * step);
    const curvature = (envelope(y, m + step, v) - 2 * envelope(y, m, v) + envelope(y, m - step, v)) / (step * step);
    expect(site.s - site.h * m).toBeCloseTo(slope, 8);
    expect(plain.s - plain.h * m).toBeCloseTo(slope, 8);
    // The second-order site has F's curvature; the plain site the bound's 2λ(ξ), larger.
    expect(-site.h).toBeCloseTo(curvature, 5);
    expect(plain.h).toBeGreaterThan(site.h);
    if (v === 0) expect(site.h).toBeCloseTo(sigmoid(xi) * sigmoid(-xi), 14);
  });
});
