import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gemv } from '../../src/linalg/gemv.js';
import { quadraticForm } from '../../src/linalg/quadratic-form.js';

const bits = (a: Float64Array) => Array.from(new Uint32Array(a.slice().buffer));

/** The scalar formulas, one row at a time, each sum from +0 in order of j. */
function rowSums(a: Float64Array, rows: number, cols: number, x: Float64Array, xOffset: number): Float64Array {
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < cols; j++) s += a[i * cols + j] * x[xOffset + j];
    out[i] = s;
  }
  return out;
}

const entry = fc.oneof(fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.constantFrom(0, -0, 1e-300, -1e300));

describe('gemv and quadraticForm from the dense kernels (from 1,024 entries) give the scalar loops\' bits', () => {
  it('gemv (alpha, xOffset) and quadraticForm at sizes on both sides of the kernel, its eight-row blocks and its column pairs', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 70 }), fc.integer({ min: 0, max: 3 }), fc.constantFrom(1, -0.5, 3), fc.integer(),
      (rows, cols, xOffset, alpha, seed) => {
        let state = seed >>> 0;
        const next = () => { state = (state * 1664525 + 1013904223) >>> 0; return state / 2 ** 32; };
        const value = (k: number) => (k % 17 === 0 ? -0 : (next() - 0.5) * 10 ** Math.floor(next() * 6 - 3));
        const a = Float64Array.from({ length: rows * cols }, (_, k) => value(k));
        const x = Float64Array.from({ length: cols + xOffset }, (_, k) => value(k + 3));
        const out = new Float64Array(rows).fill(NaN);
        gemv(a, rows, cols, x, out, alpha, 0, xOffset);
        expect(bits(out)).toEqual(bits(rowSums(a, rows, cols, x, xOffset).map((s) => alpha * s)));
        const n = Math.min(rows, cols);
        const square = a.subarray(0, n * n);
        let want = 0;
        const sums = rowSums(square, n, n, x, xOffset);
        for (let i = 0; i < n; i++) want += x[xOffset + i] * sums[i];
        expect(Object.is(quadraticForm(square, n, x, xOffset), want)).toBe(true);
      }), { numRuns: 200 });
  });

  it('signed zeros and extreme entries keep their bits (a row of −0 terms sums to +0)', () => {
    fc.assert(fc.property(fc.integer({ min: 32, max: 45 }), fc.array(entry, { minLength: 45 * 45, maxLength: 45 * 45 }), fc.array(entry, { minLength: 45, maxLength: 45 }),
      (n, values, xs) => {
        const a = Float64Array.from(values.slice(0, n * n));
        const x = Float64Array.from(xs.slice(0, n));
        const out = new Float64Array(n);
        gemv(a, n, n, x, out);
        expect(bits(out)).toEqual(bits(rowSums(a, n, n, x, 0)));
      }), { numRuns: 50 });
  });
});
