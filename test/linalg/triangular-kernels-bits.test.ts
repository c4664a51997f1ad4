import { describe, expect, it } from 'vitest';
import { cholesky } from '../../src/linalg/cholesky.js';
import { gemmNnAccumulate } from '../../src/linalg/gemm-nn-accumulate.js';
import { lowerTransposedTimesTiled } from '../../src/linalg/lower-transposed-times-tiled.js';
import { solveLowerRows } from '../../src/linalg/solve-lower-rows.js';
import { solveLowerTransposedTiled } from '../../src/linalg/solve-lower-transposed-tiled.js';
import { Rng } from '../../src/rng/rng.js';

// The WebAssembly triangular kernels against the scalar formulas they replaced, bit for bit, at sizes that cross
// their 4×4 tiles and tails and at the sparse GP's (M inducing points, batches of rows).
const bits = (a: Float64Array) => Array.from(new Uint32Array(a.slice().buffer));

function random(length: number, seed: number): Float64Array {
  const rng = Rng.fromSeed(seed);
  return Float64Array.from({ length }, () => rng.normal());
}

/** A well-conditioned lower-triangular n×n matrix (zeros above the diagonal, diagonal ≥ 1). */
function lower(n: number, seed: number): Float64Array {
  const l = random(n * n, seed);
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) l[a * n + b] = 0;
    for (let b = 0; b < a; b++) l[a * n + b] *= 0.3;
    l[a * n + a] = 1 + Math.abs(l[a * n + a]);
  }
  return l;
}

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
