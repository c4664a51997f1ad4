import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cholesky } from '../../src/linalg/cholesky.js';
import { choleskyInverse } from '../../src/linalg/cholesky-inverse.js';
import { gemmNnAccumulate } from '../../src/linalg/gemm-nn-accumulate.js';
import { gemmNt } from '../../src/linalg/gemm-nt.js';
import { lowerTransposedTimesTiled } from '../../src/linalg/lower-transposed-times-tiled.js';
import { solveLowerRows } from '../../src/linalg/solve-lower-rows.js';
import { solveLowerTransposedTiled } from '../../src/linalg/solve-lower-transposed-tiled.js';
import { spdInverse } from '../../src/linalg/spd-inverse.js';
import { Rng } from '../../src/rng/rng.js';
import { expectClose } from '../helpers/close.js';
import { plainCholeskyInverse } from '../helpers/plain-cholesky-inverse.js';

const bits = (a: Float64Array) => Array.from(new Uint32Array(a.slice().buffer));

function random(length: number, seed: number): Float64Array {
  const rng = Rng.fromSeed(seed);
  return Float64Array.from({ length }, () => rng.normal());
}

/** A well-conditioned lower-triangular M×M matrix (zeros above the diagonal, diagonal ≥ 1). */
function lower(M: number, seed: number): Float64Array {
  const l = random(M * M, seed);
  for (let a = 0; a < M; a++) {
    for (let b = a + 1; b < M; b++) l[a * M + b] = 0;
    for (let b = 0; b < a; b++) l[a * M + b] *= 0.3;
    l[a * M + a] = 1 + Math.abs(l[a * M + a]);
  }
  return l;
}

const shapes: [number, number, number][] = [[1, 1, 1], [3, 5, 2], [4, 4, 4], [5, 7, 9], [8, 3, 13], [9, 12, 11], [13, 17, 6]];

describe('register-tiled kernels (the sparse GP\'s O(BM²) passes)', () => {
  for (const [m, k, n] of shapes) {
    it(`${m}×${k} · ${k}×${n}: gemmNnAccumulate adds A·S at offsets, bit for bit the plain loop in order of k`, () => {
      const lda = k + 2;
      const a = random(3 + m * lda, 1);
      const src = random((k + 1) * n, 2);
      const start = random(n + m * n, 3);
      const out = start.slice();
      gemmNnAccumulate(out, n, a, 3, lda, src, n, m, k, n);
      const naive = start.slice();
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          let c = naive[n + i * n + j];
          for (let q = 0; q < k; q++) c += a[3 + i * lda + q] * src[n + q * n + j];
          naive[n + i * n + j] = c;
        }
      }
      expect(bits(out)).toEqual(bits(naive));
      expectClose(out, naive, { rel: 1e-12, abs: 1e-12 }, 'A·S');
    });

    it(`${m}×${n} · (${k}×${n})ᵀ: gemmNt is X·Yᵀ, full or lower only, bit for bit the plain dot products`, () => {
      const x = random(m * n, 4);
      const y = random(k * n, 5);
      const ldo = k + 1;
      for (const isLower of [false, true]) {
        const out = new Float64Array(m * ldo).fill(7);
        gemmNt(out, ldo, x, y, m, k, n, isLower);
        for (let i = 0; i < m; i++) {
          for (let j = 0; j < ldo; j++) {
            if (j >= k || (isLower && j > i)) {
              expect(out[i * ldo + j]).toBe(7);
              continue;
            }
            let s = 0;
            for (let q = 0; q < n; q++) s += x[i * n + q] * y[j * n + q];
            expect(out[i * ldo + j]).toBe(s);
          }
        }
      }
    });
  }

  for (const M of [1, 3, 4, 6, 9, 13]) {
    const n = 7;
    it(`M = ${M}: solveLowerRows and solveLowerTransposedTiled solve L·X = B and Lᵀ·X = B, lowerTransposedTimesTiled is Lᵀ·src, to 1e-12 of the plain loops`, () => {
      const l = lower(M, 6);
      const rhs = random(M * n, 7);
      const x = rhs.slice();
      solveLowerRows(l, M, x, n);
      const back = new Float64Array(M * n);
      for (let a = 0; a < M; a++) for (let j = 0; j < n; j++) for (let b = 0; b <= a; b++) back[a * n + j] += l[a * M + b] * x[b * n + j];
      expectClose(back, rhs, { rel: 1e-12, abs: 1e-12 }, 'L·X');
      const y = rhs.slice();
      solveLowerTransposedTiled(l, M, y, n);
      const backT = new Float64Array(M * n);
      for (let a = 0; a < M; a++) for (let j = 0; j < n; j++) for (let b = a; b < M; b++) backT[a * n + j] += l[b * M + a] * y[b * n + j];
      expectClose(backT, rhs, { rel: 1e-12, abs: 1e-12 }, 'Lᵀ·X');
      const src = random(M * n, 8);
      const out = random(M * n, 9);
      lowerTransposedTimesTiled(out, src, l, M, n);
      const naive = Array.from({ length: M * n }, (_, e) => {
        const a = Math.floor(e / n);
        let s = 0;
        for (let b = a; b < M; b++) s += l[b * M + a] * src[b * n + (e % n)];
        return s;
      });
      expectClose(out, naive, { rel: 1e-12, abs: 1e-12 }, 'Lᵀ·src');
    });
  }

  it('gemmNnAccumulate on a column block (row stride ld > n) touches only that block, bit for bit the plain loop', () => {
    const [m, k, n, ld] = [6, 5, 7, 11];
    const a = random(m * k, 10);
    const src = random(k * ld, 11);
    const start = random(m * ld, 12);
    const out = start.slice();
    gemmNnAccumulate(out, 2, a, 0, k, src, 3, m, k, n, ld);
    const naive = start.slice();
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let c = naive[2 + i * ld + j];
        for (let q = 0; q < k; q++) c += a[i * k + q] * src[3 + q * ld + j];
        naive[2 + i * ld + j] = c;
      }
    }
    expect(bits(out)).toEqual(bits(naive));
  });

  for (const M of [1, 3, 4, 6, 9, 13]) {
    it(`M = ${M}: the triangle-restricted kernels give the entries of the full ones bit for bit`, () => {
      const l = lower(M, 13);
      const lowerB = lower(M, 14);
      const upperB = new Float64Array(M * M);
      for (let a = 0; a < M; a++) for (let b = 0; b < M; b++) upperB[a * M + b] = lowerB[b * M + a];
      const dense = random(M * M, 15);
      const inLower = (e: number) => e % M <= Math.floor(e / M);
      const lowerBits = (v: Float64Array) => bits(Float64Array.from(v, (x, e) => (inLower(e) ? x : 0)));

      const full = lowerB.slice();
      solveLowerRows(l, M, full, M);
      const part = lowerB.slice();
      solveLowerRows(l, M, part, M, 'lower');
      expect(bits(part)).toEqual(bits(full));

      const fullT = dense.slice();
      solveLowerTransposedTiled(l, M, fullT, M);
      const partT = dense.slice();
      solveLowerTransposedTiled(l, M, partT, M, 'lower');
      expect(lowerBits(partT)).toEqual(lowerBits(fullT));

      const fullU = upperB.slice();
      solveLowerTransposedTiled(l, M, fullU, M);
      const partU = upperB.slice();
      solveLowerTransposedTiled(l, M, partU, M, 'upper');
      expect(bits(partU)).toEqual(bits(fullU));

      const fullP = new Float64Array(M * M);
      lowerTransposedTimesTiled(fullP, lowerB, l, M, M);
      const partP = random(M * M, 16);
      lowerTransposedTimesTiled(partP, lowerB, l, M, M, 'lower');
      expect(lowerBits(partP)).toEqual(lowerBits(fullP));
      for (let a = 0; a < M; a++) for (let b = a - (a % 4) + 4; b < M; b++) expect(partP[a * M + b]).toBe(0);

      for (const isLower of [false, true]) {
        for (const [y, triangle] of [[lowerB, 'lower'], [upperB, 'upper']] as const) {
          const whole = new Float64Array(M * M);
          gemmNt(whole, M, dense, y, M, M, M, isLower);
          const skipped = new Float64Array(M * M);
          gemmNt(skipped, M, dense, y, M, M, M, isLower, triangle);
          expect(bits(skipped)).toEqual(bits(whole));
        }
      }
    });
  }
});

// The WebAssembly triangular kernels against the scalar formulas they replaced, bit for bit, at sizes that cross
// their 4×4 tiles and tails and at the sparse GP's (M inducing points, batches of rows).
/** G·Gᵀ + shift·I for a random n×rank G: positive definite when rank ≥ n and shift ≥ 0, not when rank < n and shift < 0. */
function gram(n: number, rank: number, shift: number, seed: number): Float64Array {
  const g = random(n * rank, seed);
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let q = 0; q < rank; q++) s += g[i * rank + q] * g[j * rank + q];
      a[i * n + j] = s + (i === j ? shift : 0);
    }
  }
  return a;
}

/** The one-row Cholesky–Banachiewicz loop on A + jitter·I (lower triangle read). */
function plainCholesky(a: Float64Array, n: number, jitter: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i * n + j];
      if (i === j) sum += jitter;
      for (let k = 0; k < j; k++) sum -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = i === j ? Math.sqrt(sum) : sum / l[j * n + j];
    }
  }
  return l;
}

/** Forward substitution along rows: x_i = (b_i − l_i0·x_0 − … − l_i,i−1·x_i−1)·(1/l_ii). */
function plainSolveLower(l: Float64Array, n: number, b: Float64Array, cols: number): Float64Array {
  const x = b.slice();
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < cols; c++) {
      let s = x[i * cols + c];
      for (let k = 0; k < i; k++) s -= l[i * n + k] * x[k * cols + c];
      x[i * cols + c] = s * (1 / l[i * n + i]);
    }
  }
  return x;
}

/** Back substitution for Lᵀ in the blocked order: the rows after row i's block of four first, then its own block. */
function plainSolveLowerTransposed(l: Float64Array, n: number, b: Float64Array, cols: number): Float64Array {
  const x = b.slice();
  for (let i = n - 1; i >= 0; i--) {
    const end = Math.min(n, i - (i % 4) + 4);
    for (let c = 0; c < cols; c++) {
      let s = x[i * cols + c];
      for (let k = end; k < n; k++) s -= l[k * n + i] * x[k * cols + c];
      for (let k = i + 1; k < end; k++) s -= l[k * n + i] * x[k * cols + c];
      x[i * cols + c] = s * (1 / l[i * n + i]);
    }
  }
  return x;
}

const sizes = [1, 2, 3, 4, 5, 7, 8, 13, 33, 64, 101];

describe('WebAssembly triangular kernels: bit for bit the scalar formulas', () => {
  for (const n of sizes) {
    it(`n = ${n}: cholesky is the one-row loop, with and without the jitter retry`, () => {
      const a = gram(n, n + 3, 0.5, n);
      const l = new Float64Array(n * n).fill(9);
      expect(cholesky(a, n, l)).toBe(0);
      expect(bits(l)).toEqual(bits(plainCholesky(a, n, 0)));
      if (n < 3) return;
      const singular = gram(n, n - 2, -1e-7, n + 100);
      const jitter = cholesky(singular, n, l);
      expect(jitter).toBeGreaterThan(0);
      expect(bits(l)).toEqual(bits(plainCholesky(singular, n, jitter)));
    });

    it(`n = ${n}: choleskyInverse and spdInverse are the column-by-column formulas, with and without the jitter retry`, () => {
      for (const [a, shift] of [[gram(n, n + 3, 0.5, 7 * n), 0], [gram(n, Math.max(1, n - 2), -1e-7, 7 * n + 1), -1e-7]] as const) {
        const l = new Float64Array(n * n);
        const jitter = cholesky(a, n, l);
        if (shift < 0 && n >= 3) expect(jitter).toBeGreaterThan(0);
        const want = plainCholeskyInverse(plainCholesky(a, n, jitter), n);
        const got = new Float64Array(n * n).fill(9);
        choleskyInverse(l, n, got);
        expect(bits(got)).toEqual(bits(want));
        const inverse = new Float64Array(n * n).fill(9);
        const work = new Float64Array(n * n).fill(9);
        const logDet = spdInverse(a, n, inverse, work);
        expect(bits(inverse)).toEqual(bits(want));
        expect(bits(work)).toEqual(bits(l));
        let sum = 0;
        for (let i = 0; i < n; i++) sum += Math.log(l[i * n + i]);
        expect(Object.is(logDet, 2 * sum)).toBe(true);
      }
    });

    it(`n = ${n}: the triangular solves and Lᵀ·src are the substitution loops`, () => {
      const l = lower(n, 2 * n);
      for (const cols of [1, 3, 8, 57]) {
        const b = random(n * cols, 3 * n + cols);
        const x = b.slice();
        solveLowerRows(l, n, x, cols);
        expect(bits(x)).toEqual(bits(plainSolveLower(l, n, b, cols)));
        const y = b.slice();
        solveLowerTransposedTiled(l, n, y, cols);
        expect(bits(y)).toEqual(bits(plainSolveLowerTransposed(l, n, b, cols)));
        const out = random(n * cols, 5);
        lowerTransposedTimesTiled(out, b, l, n, cols);
        const naive = new Float64Array(n * cols);
        for (let r = 0; r < n; r++) {
          for (let c = 0; c < cols; c++) {
            let s = 0;
            for (let k = r; k < n; k++) s += l[k * n + r] * b[k * cols + c];
            naive[r * cols + c] = s;
          }
        }
        expect(bits(out)).toEqual(bits(naive));
      }
    });
  }

  it('gemmNnAccumulate at the sparse GP\'s sizes (M = 101, a batch of 257) is the plain loop', () => {
    const [m, k, n] = [101, 101, 257];
    const a = random(m * k, 20);
    const src = random(k * n, 21);
    const start = random(m * n, 22);
    const out = start.slice();
    gemmNnAccumulate(out, 0, a, 0, k, src, 0, m, k, n);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) {
        let c = start[i * n + j];
        for (let q = 0; q < k; q++) c += a[i * k + q] * src[q * n + j];
        start[i * n + j] = c;
      }
    }
    expect(bits(out)).toEqual(bits(start));
  });

  it('cholesky, choleskyInverse and spdInverse are the scalar formulas bit for bit on random SPD matrices (n = 1 to 70, jitter retries included)', () => {
    const matrix = fc.integer({ min: 1, max: 70 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 1, max: n + 4 }),
      fc.constantFrom(1, 1e-3, -1e-9), fc.integer({ min: 0, max: 2 ** 31 - 1 })));
    fc.assert(fc.property(matrix, ([n, rank, shift, seed]) => {
      const a = gram(n, rank, shift, seed);
      const l = new Float64Array(n * n);
      let jitter: number;
      try {
        jitter = cholesky(a, n, l);
      } catch {
        return;
      }
      expect(bits(l)).toEqual(bits(plainCholesky(a, n, jitter)));
      const want = plainCholeskyInverse(l, n);
      const got = new Float64Array(n * n);
      choleskyInverse(l, n, got);
      expect(bits(got)).toEqual(bits(want));
      const inverse = new Float64Array(n * n);
      spdInverse(a, n, inverse);
      expect(bits(inverse)).toEqual(bits(want));
    }), { numRuns: 120 });
  });

  it('cholesky with l aliasing a factors A even when the first try fails and the jitter retry runs', () => {
    const n = 12;
    const singular = gram(n, n - 3, -1e-7, 7);
    const expected = new Float64Array(n * n);
    const jitter = cholesky(singular, n, expected);
    expect(jitter).toBeGreaterThan(0);
    const inPlace = singular.slice();
    expect(cholesky(inPlace, n, inPlace)).toBe(jitter);
    expect(bits(inPlace)).toEqual(bits(expected));
  });
});
