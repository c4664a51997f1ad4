import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findBatchProblems } from '../../src/core/find-batch-problems.js';

const MAX = 1e12;
/** Features near and beyond the bound, the non-finite ones, and ordinary values. */
const feature = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, MAX, -MAX, MAX * (1 + 2 ** -52), -MAX * (1 + 2 ** -52), 0, -0, Number.MIN_VALUE),
  fc.double({ min: -2 * MAX, max: 2 * MAX, noNaN: true }),
  fc.double({ min: -10, max: 10, noNaN: true }),
);

describe('findBatchProblems: the flat scan of the features agrees with the row-by-row rule', () => {
  it('each row is refused at its first feature with !(|v| ≤ maxAbsInput), and only those rows (any batch length, not only multiples of four values)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 9 }), fc.array(feature, { minLength: 63, maxLength: 63 }), fc.array(fc.boolean(), { minLength: 63, maxLength: 63 }),
      (d, n, values, clean) => {
        const x = Float64Array.from({ length: n * d }, (_, k) => (clean[k] ? 0.5 : values[k]));
        const problems = findBatchProblems({ x, y: new Float64Array(n), n, d }, d, { task: 'regression', weights: true, maxAbsInput: MAX });
        const expected: [number, number][] = [];
        for (let r = 0; r < n; r++) {
          for (let j = 0; j < d; j++) {
            if (!(Math.abs(x[r * d + j]) <= MAX)) { expected.push([r + 1, j + 1]); break; }
          }
        }
        expect(problems.map((p) => [p.location.row, p.location.column])).toEqual(expected);
      }), { numRuns: 500 });
  });
});
