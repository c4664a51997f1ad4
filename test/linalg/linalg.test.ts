import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NumericalError } from '../../src/core/numerical-error.js';
import { cholesky } from '../../src/linalg/cholesky.js';
import { choleskyInverse } from '../../src/linalg/cholesky-inverse.js';
import { choleskySolve } from '../../src/linalg/cholesky-solve.js';
import { gemv } from '../../src/linalg/gemv.js';
import { gramAccumulate } from '../../src/linalg/gram-accumulate.js';
import { gramAccumulateUpper } from '../../src/linalg/gram-accumulate-upper.js';
import { logDetCholesky } from '../../src/linalg/log-det-cholesky.js';
import { matrixDeterminantLemma } from '../../src/linalg/matrix-determinant-lemma.js';
import { quadraticForm } from '../../src/linalg/quadratic-form.js';
import { shermanMorrisonUpdate } from '../../src/linalg/sherman-morrison-update.js';
import { spdInverse } from '../../src/linalg/spd-inverse.js';
import { symmetricEigen } from '../../src/linalg/symmetric-eigen.js';
import { conditionNumber } from '../../src/linalg/condition-number.js';
import { symmetricRank1Update } from '../../src/linalg/symmetric-rank1-update.js';
import { symmetricRank2Update } from '../../src/linalg/symmetric-rank2-update.js';
import { symmetricQuadraticForm } from '../../src/linalg/symmetric-quadratic-form.js';
import { solveLower } from '../../src/linalg/solve-lower.js';
import { solveLowerRowNorms } from '../../src/linalg/solve-lower-row-norms.js';
import { solveLowerTransposed } from '../../src/linalg/solve-lower-transposed.js';
import { solveLowerTransposedRows } from '../../src/linalg/solve-lower-transposed-rows.js';
import { dot } from '../../src/linalg/dot.js';
import { expectClose } from '../helpers/close.js';
import { plainCholeskyInverse } from '../helpers/plain-cholesky-inverse.js';

/** A random SPD matrix BᵀB + I from a seed-free fast-check array. */
const spd = (n: number) => fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: n * n, maxLength: n * n }).map((b) => {
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let s = i === j ? 1 : 0;
    for (let k = 0; k < n; k++) s += b[k * n + i] * b[k * n + j];
    a[i * n + j] = s;
  }
  return a;
});

describe('linalg on flat arrays', () => {
  it('cholesky of a known matrix', () => {
    const a = Float64Array.of(4, 12, -16, 12, 37, -43, -16, -43, 98);
    const l = new Float64Array(9);
    expect(cholesky(a, 3, l)).toBe(0);
    expect(Array.from(l)).toEqual([2, 0, 0, 6, 1, 0, -8, 5, 3]);
    expect(logDetCholesky(l, 3)).toBeCloseTo(Math.log(36), 12);
  });

  it('cholesky (four rows at a time) equals the plain row-by-row loop bit for bit', () => {
    for (const n of [1, 2, 3, 4, 5, 7, 8, 9, 13, 17]) {
      let state = 7 + n;
      const next = (): number => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return state / 2 ** 32 - 0.5; };
      const b = Float64Array.from({ length: n * n }, next);
      const a = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) a[i * n + j] += b[i * n + k] * b[j * n + k] + (i === j && k === 0 ? 0.5 : 0);
      const plain = new Float64Array(n * n);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j <= i; j++) {
          let sum = a[i * n + j];
          for (let k = 0; k < j; k++) sum -= plain[i * n + k] * plain[j * n + k];
          plain[i * n + j] = i === j ? Math.sqrt(sum) : sum / plain[j * n + j];
        }
      }
      const l = new Float64Array(n * n).fill(9);
      expect(cholesky(a, n, l)).toBe(0);
      expect(Array.from(l)).toEqual(Array.from(plain));
    }
  });

  it('cholesky adds jitter to a singular PSD matrix and reports it', () => {
    const a = Float64Array.of(1, 1, 1, 1);
    const l = new Float64Array(4);
    const jitter = cholesky(a, 2, l);
    expect(jitter).toBeGreaterThan(0);
    expect(jitter).toBeLessThan(1e-4);
  });

  it('cholesky throws a NumericalError for an indefinite matrix', () => {
    expect(() => cholesky(Float64Array.of(1, 0, 0, -1), 2, new Float64Array(4), { what: 'test matrix' })).toThrow(NumericalError);
    expect(() => cholesky(Float64Array.of(1, 0, 0, -1), 2, new Float64Array(4), { what: 'test matrix' })).toThrow(/test matrix is not positive definite/);
  });

  it('solve, inverse and log-det agree with each other (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(fc.constant(n), spd(n), fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: n, maxLength: n }))), ([n, a, bArr]) => {
      const b = Float64Array.from(bArr);
      const l = new Float64Array(n * n);
      cholesky(a, n, l);
      const x = new Float64Array(n);
      choleskySolve(l, n, b, x);
      const back = new Float64Array(n);
      gemv(a, n, n, x, back);
      expectClose(back, b, { abs: 1e-9 * (1 + Math.max(...bArr.map(Math.abs))) }, 'A·x');
      const inv = new Float64Array(n * n);
      choleskyInverse(l, n, inv);
      const x2 = new Float64Array(n);
      gemv(inv, n, n, b, x2);
      expectClose(x2, x, { rel: 1e-8, abs: 1e-10 }, 'A⁻¹b');
      const eig = symmetricEigen(a, n);
      expect(logDetCholesky(l, n)).toBeCloseTo(eig.values.reduce((s, v) => s + Math.log(v), 0), 8);
    }));
  });

  it('Sherman–Morrison and the determinant lemma match a fresh inverse (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(fc.constant(n), spd(n), fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: n, maxLength: n }), fc.double({ min: 0, max: 4, noNaN: true }))), ([n, a, xArr, c]) => {
      const x = Float64Array.from(xArr);
      const v = new Float64Array(n * n);
      const logDetA = spdInverse(a, n, v);
      const u = new Float64Array(n);
      gemv(v, n, n, x, u);
      const xVx = quadraticForm(v, n, x);
      shermanMorrisonUpdate(v, n, u, c, xVx);
      const updated = a.slice();
      symmetricRank1Update(updated, n, c, x);
      const direct = new Float64Array(n * n);
      const logDetUpdated = spdInverse(updated, n, direct);
      expectClose(v, direct, { rel: 1e-8, absOfMax: 1e-10 }, 'V');
      expect(matrixDeterminantLemma(logDetA, c, xVx)).toBeCloseTo(logDetUpdated, 9);
    }));
  });

  it('symmetricRank2Update equals symmetricRank1Update with x and then with u bit for bit (property)', () => {
    const nonZero = fc.double({ min: -3, max: 3, noNaN: true }).filter((value) => Math.abs(value) > 1e-3);
    const vector = (n: number) => fc.array(nonZero, { minLength: n, maxLength: n });
    fc.assert(fc.property(fc.integer({ min: 1, max: 11 }).chain((n) => fc.tuple(fc.constant(n), spd(n), vector(n), vector(n), nonZero, nonZero)), ([n, a, xArr, uArr, alpha, beta]) => {
      const x = Float64Array.from(xArr);
      const u = Float64Array.from(uArr);
      const expected = a.slice();
      symmetricRank1Update(expected, n, alpha, x);
      symmetricRank1Update(expected, n, beta, u);
      const fused = a.slice();
      symmetricRank2Update(fused, n, alpha, x, beta, u);
      expect(Array.from(fused).map((value, k) => Object.is(value, expected[k]))).not.toContain(false);
    }));
  });

  it('symmetricQuadraticForm equals quadraticForm on symmetric matrices (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }).chain((n) => fc.tuple(fc.constant(n), spd(n), fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: n, maxLength: n }))), ([n, a, xArr]) => {
      const x = Float64Array.from(xArr);
      const general = quadraticForm(a, n, x);
      expect(Math.abs(symmetricQuadraticForm(a, n, x) - general)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(general)) * n * n);
    }));
  });

  it('conditionNumber of a diagonal and of a rotated matrix', () => {
    expect(conditionNumber(Float64Array.of(2, 0, 0, 0.5), 2)).toBeCloseTo(4, 12);
    const c = Math.cos(0.3);
    const s = Math.sin(0.3);
    const rotated = Float64Array.of(9 * c * c + s * s, 8 * c * s, 8 * c * s, 9 * s * s + c * c);
    expect(conditionNumber(rotated, 2)).toBeCloseTo(9, 10);
    expect(conditionNumber(Float64Array.of(1, 0, 0, -1), 2)).toBe(Infinity);
  });

  it('gramAccumulate (blocks of eight rows and a remainder) equals one rank-1 update per row bit for bit', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 21 }), fc.integer(), (d, n, seed) => {
      let state = seed >>> 0;
      const next = (): number => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return state / 2 ** 32 - 0.5; };
      const x = Float64Array.from({ length: n * d }, next);
      const w = Float64Array.from({ length: n }, next);
      const start = Float64Array.from({ length: d * d }, next);
      for (let i = 0; i < d; i++) for (let j = 0; j < i; j++) start[i * d + j] = start[j * d + i];
      const g = start.slice();
      gramAccumulate(x, n, d, g, 1.5, w);
      const s = start.slice();
      for (let r = 0; r < n; r++) {
        for (let i = 0; i < d; i++) for (let j = i; j < d; j++) s[i * d + j] += 1.5 * w[r] * x[r * d + i] * x[r * d + j];
      }
      for (let i = 0; i < d; i++) for (let j = i; j < d; j++) expect(g[i * d + j]).toBe(s[i * d + j]);
      for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) expect(g[i * d + j]).toBe(g[j * d + i]);
    }));
  });

  it('solveLowerRowNorms equals solveLower then dot per row, bit for bit', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }).chain((d) => fc.tuple(fc.constant(d), spd(d), fc.integer({ min: 0, max: 19 }), fc.integer())), ([d, a, n, seed]) => {
      const l = new Float64Array(d * d);
      cholesky(a, d, l);
      let state = seed >>> 0;
      const next = (): number => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return 4 * (state / 2 ** 32 - 0.5); };
      const x = Float64Array.from({ length: n * d }, next);
      const out = new Float64Array(n);
      solveLowerRowNorms(l, d, x, n, out, new Float64Array(8 * d));
      const v = new Float64Array(d);
      for (let r = 0; r < n; r++) {
        solveLower(l, d, x.subarray(r * d, (r + 1) * d), v);
        expect(out[r]).toBe(dot(v, v, d));
      }
    }));
  });

  it('solveLowerTransposedRows equals solveLowerTransposed on every column, bit for bit', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 9 }).chain((n) => fc.tuple(fc.constant(n), spd(n), fc.integer({ min: 1, max: 5 }), fc.integer())), ([n, a, cols, seed]) => {
      const l = new Float64Array(n * n);
      cholesky(a, n, l);
      let state = seed >>> 0;
      const next = (): number => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return 4 * (state / 2 ** 32 - 0.5); };
      const b = Float64Array.from({ length: n * cols }, next);
      const x = b.slice();
      solveLowerTransposedRows(l, n, x, cols);
      const column = new Float64Array(n);
      for (let c = 0; c < cols; c++) {
        for (let i = 0; i < n; i++) column[i] = b[i * cols + c];
        solveLowerTransposed(l, n, column, column);
        for (let i = 0; i < n; i++) expect(x[i * cols + c]).toBe(column[i]);
      }
    }));
  });

  it('choleskyInverse equals the column-by-column formulas for L⁻¹ and (L⁻¹)ᵀL⁻¹ bit for bit', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 24 }).chain((n) => fc.tuple(fc.constant(n), spd(n))), ([n, a]) => {
      const l = new Float64Array(n * n);
      cholesky(a, n, l);
      const out = new Float64Array(n * n);
      choleskyInverse(l, n, out);
      expect(Array.from(new Uint32Array(out.buffer))).toEqual(Array.from(new Uint32Array(plainCholeskyInverse(l, n).buffer)));
    }));
  });

  it('gramAccumulate equals a sum of rank-1 updates and stays symmetric', () => {
    const x = Float64Array.of(1, 2, 3, -1, 0.5, 2, 0, 1, -4);
    const w = Float64Array.of(0.5, 2, 1);
    const g = new Float64Array(9);
    gramAccumulate(x, 3, 3, g, 2, w);
    const s = new Float64Array(9);
    for (let r = 0; r < 3; r++) symmetricRank1Update(s, 3, 2 * w[r], x, r * 3);
    expectClose(g, s, { abs: 1e-14 }, 'gram');
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(g[i * 3 + j]).toBe(g[j * 3 + i]);
  });

  it('gramAccumulateUpper adds rows one by one in order on the upper triangle, bit-identical for any split, lower triangle untouched', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 150 }), fc.integer({ min: 0, max: 150 }), fc.boolean(), (d, n, cutAt, weighted) => {
      const cut = Math.min(n, cutAt);
      const x = Float64Array.from({ length: n * d }, (_, i) => Math.sin(1.7 * i + d) * (1 + (i % 5)));
      const w = weighted ? Float64Array.from({ length: n }, (_, r) => (r % 3) * 0.75) : undefined;
      const reference = new Float64Array(d * d).fill(-7);
      for (let r = 0; r < n; r++) {
        for (let i = 0; i < d; i++) {
          const s = (w === undefined ? 1 : w[r]) * x[r * d + i];
          for (let j = i; j < d; j++) reference[i * d + j] += s * x[r * d + j];
        }
      }
      const split = new Float64Array(d * d).fill(-7);
      gramAccumulateUpper(x.subarray(0, cut * d), cut, d, split, w?.subarray(0, cut));
      gramAccumulateUpper(x.subarray(cut * d), n - cut, d, split, w?.subarray(cut));
      expect(Array.from(split)).toEqual(Array.from(reference));
      for (let i = 0; i < d; i++) for (let j = 0; j < i; j++) expect(split[i * d + j]).toBe(-7);
    }), { numRuns: 60 });
  });
});
