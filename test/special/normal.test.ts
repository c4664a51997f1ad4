import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  logNormalCdf,
  normalCdf,
  normalLogPdf,
  normalQuantile,
} from '../../src/special/index.js';
import { reference, relativeError, worstRelativeError } from './reference.js';

// Tolerances: 2e-15 relative (measured max vs mpmath: normalCdf 4.8e-16, logNormalCdf 4.8e-16,
// normalQuantile 4.1e-16, normalLogPdf 1.2e-16). Subnormal Φ values are compared in units of
// the smallest normal double (see relativeError).
const TOL = 2e-15;

describe('normalCdf', () => {
  it('matches mpmath on [-40, 10], including the subnormal lower tail', () => {
    const { error, at } = worstRelativeError(normalCdf, reference.normalCdf);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(TOL);
  });

  it('keeps relative accuracy where erfc(-x/√2)/2 would not', () => {
    // Φ(-37) (mpmath); computing it as erfc(37/√2)/2 costs up to ≈ 1e-13 relative here.
    expect(relativeError(normalCdf(-37), 5.725571222524577e-300)).toBeLessThanOrEqual(TOL);
    expect(normalCdf(-38)).toBeGreaterThan(0);
    expect(normalCdf(-40)).toBe(0);
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(Infinity)).toBe(1);
    expect(normalCdf(-Infinity)).toBe(0);
    expect(normalCdf(NaN)).toBeNaN();
  });

  it('is exactly 1 above 8.3, as 1 − Φ(−x) rounds there (the short cut changes no value)', () => {
    fc.assert(fc.property(fc.double({ min: 8.3, max: 40, noNaN: true }), (x) => {
      expect(normalCdf(x)).toBe(1);
      expect(1 - normalCdf(-x)).toBe(1);
    }));
    expect(1 - normalCdf(-8.2)).toBeLessThan(1);
  });
});

describe('logNormalCdf', () => {
  it('matches mpmath from -1e5 to 40', () => {
    const { error, at } = worstRelativeError(logNormalCdf, reference.logNormalCdf);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(TOL);
  });

  it('is finite far in the lower tail and ≈ -Φ(-x) in the upper tail', () => {
    const v = logNormalCdf(-1e5);
    expect(Number.isFinite(v)).toBe(true);
    expect(v).toBeCloseTo(-5.000000012431864e9, 3);
    expect(relativeError(logNormalCdf(10), -normalCdf(-10))).toBeLessThanOrEqual(TOL);
    expect(logNormalCdf(Infinity) === 0).toBe(true);
    expect(logNormalCdf(-Infinity)).toBe(-Infinity);
    expect(logNormalCdf(NaN)).toBeNaN();
  });
});

describe('normalQuantile', () => {
  it('matches mpmath for p from 5e-324 to 1 - 2^-53', () => {
    const { error, at } = worstRelativeError(normalQuantile, reference.normalQuantile);
    expect(error, `worst at p = ${at}`).toBeLessThanOrEqual(TOL);
  });

  it('has the known values and edge cases', () => {
    expect(normalQuantile(0.5)).toBe(0);
    expect(relativeError(normalQuantile(0.975), 1.9599639845400538)).toBeLessThanOrEqual(TOL);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    for (const p of [-0.1, 1.1, NaN, -Infinity]) expect(normalQuantile(p)).toBeNaN();
  });

  it('inverts normalCdf (round trip within the conditioning of Φ)', () => {
    fc.assert(
      fc.property(fc.double({ min: -37, max: 8, noNaN: true }), (x) => {
        const p = normalCdf(x);
        const back = normalQuantile(p);
        // |dx| = |dp|/φ(x): p carries ≈ 5e-16 relative to min(p, 1 − p), plus the rounding of
        // 1 − Q to the double grid (ulp/2 ≈ 1.1e-16) above 1/2; the quantile adds ≈ 4e-16·|x|.
        const phi = Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
        const dp = 5e-16 * Math.min(p, 1 - p) + (p > 0.5 ? 1.2e-16 : 0);
        return Math.abs(back - x) <= dp / phi + 4e-16 * Math.abs(x) + 5e-324;
      }),
      { numRuns: 2000, seed: 20240611 },
    );
  });

  it('is symmetric: Φ⁻¹(1 - p) = -Φ⁻¹(p) when 1 - p is exact', () => {
    for (const p of [2 ** -40, 1 / 1024, 1 / 64, 0.125, 0.375]) {
      expect(normalQuantile(1 - p)).toBe(-normalQuantile(p));
    }
  });
});

describe('normalLogPdf', () => {
  it('matches mpmath', () => {
    for (const [x, mean, variance, want] of reference.normalLogPdf) {
      expect(relativeError(normalLogPdf(x, mean, variance), want)).toBeLessThanOrEqual(TOL);
    }
  });

  it('returns NaN for non-positive variance and -Infinity for infinite variance', () => {
    expect(normalLogPdf(1, 0, 0)).toBeNaN();
    expect(normalLogPdf(0, 0, -1)).toBeNaN();
    expect(normalLogPdf(1, 0, Infinity)).toBe(-Infinity);
  });
});
