import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logSumExp } from '../../src/special/index.js';

describe('logSumExp', () => {
  it('handles the special cases', () => {
    expect(logSumExp([])).toBe(-Infinity);
    expect(logSumExp([-Infinity, -Infinity])).toBe(-Infinity);
    expect(logSumExp([1, Infinity, 3])).toBe(Infinity);
    expect(logSumExp([1, NaN, 3])).toBeNaN();
    expect(logSumExp([Infinity, NaN])).toBeNaN();
    expect(logSumExp([NaN, -Infinity])).toBeNaN();
    expect(logSumExp([-Infinity, 2])).toBe(2);
    expect(logSumExp([5])).toBe(5);
  });

  it('neither overflows nor underflows', () => {
    expect(logSumExp([1000, 1000])).toBe(1000 + Math.LN2);
    expect(logSumExp([-1000, -1000, -1000, -1000])).toBe(-1000 + 2 * Math.LN2);
    // log(e^0 + e^-40) = log1p(e^-40): the small term is kept to full relative precision.
    expect(logSumExp([0, -40])).toBe(Math.log1p(Math.exp(-40)));
  });

  it('respects start and length', () => {
    const values = new Float64Array([100, 0, Math.log(3), 100]);
    expect(logSumExp(values, 1, 2)).toBeCloseTo(Math.log(4), 15);
    expect(logSumExp(values, 1, 0)).toBe(-Infinity);
    expect(logSumExp(values, 3)).toBe(100);
    expect(logSumExp(values, 4)).toBe(-Infinity);
  });

  it('rejects out-of-range slices with RangeError', () => {
    expect(() => logSumExp([1, 2], -1)).toThrow(RangeError);
    expect(() => logSumExp([1, 2], 3)).toThrow(/start/);
    expect(() => logSumExp([1, 2], 0, 3)).toThrow(/length/);
    expect(() => logSumExp([1, 2], 0.5)).toThrow(RangeError);
  });

  it('agrees with a direct sum where that is safe', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -30, max: 30, noNaN: true }), { minLength: 1, maxLength: 50 }),
        (xs) => {
          const direct = Math.log(xs.reduce((s, x) => s + Math.exp(x), 0));
          return Math.abs(logSumExp(xs) - direct) <= 1e-14 * Math.max(1, Math.abs(direct));
        },
      ),
      { numRuns: 500, seed: 7 },
    );
  });

  it('is shift-equivariant: lse(x + c) = lse(x) + c', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 1, maxLength: 20 }),
        fc.double({ min: -1e3, max: 1e3, noNaN: true }),
        (xs, c) => {
          const shifted = logSumExp(xs.map((x) => x + c));
          return Math.abs(shifted - (logSumExp(xs) + c)) <= 1e-12 * Math.max(1, Math.abs(shifted));
        },
      ),
      { numRuns: 500, seed: 11 },
    );
  });
});
