import { NumericalError } from '../core/numerical-error.js';

/** Options of {@link cholesky}. */
export interface CholeskyOptions {
  /** First jitter, relative to the mean diagonal; tried only after the plain factorisation fails. */
  readonly initialJitter?: number;
  /** How many times the jitter is multiplied by 10 and retried before giving up. */
  readonly maxTries?: number;
  /** Name used in the error message (e.g. "posterior precision"). */
  readonly what?: string;
}

/**
 * Row by row (Cholesky–Banachiewicz), four rows at a time: their entries left of the block's diagonal go
 * column by column (four independent sums sharing the loads of row j), then the block's own triangle. Every
 * entry is the same sum, in the same order, as in the one-row loop.
 */
function factorInPlace(a: Float64Array, n: number, l: Float64Array, jitter: number): boolean {
  let i0 = 0;
  for (; i0 + 3 < n; i0 += 4) {
    const r0 = i0 * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    for (let j = 0; j < i0; j++) {
      const rowJ = j * n;
      let s0 = a[r0 + j];
      let s1 = a[r1 + j];
      let s2 = a[r2 + j];
      let s3 = a[r3 + j];
      for (let k = 0; k < j; k++) {
        const f = l[rowJ + k];
        s0 -= l[r0 + k] * f;
        s1 -= l[r1 + k] * f;
        s2 -= l[r2 + k] * f;
        s3 -= l[r3 + k] * f;
      }
      const pivot = l[rowJ + j];
      l[r0 + j] = s0 / pivot;
      l[r1 + j] = s1 / pivot;
      l[r2 + j] = s2 / pivot;
      l[r3 + j] = s3 / pivot;
    }
    if (!factorRows(a, n, l, jitter, i0, i0 + 4, i0)) return false;
  }
  return factorRows(a, n, l, jitter, i0, n, 0);
}

/** Rows from..to−1 of the factor, columns from `first` on (those left of it already in `l`). */
function factorRows(a: Float64Array, n: number, l: Float64Array, jitter: number, from: number, to: number, first: number): boolean {
  for (let i = from; i < to; i++) {
    const rowI = i * n;
    for (let j = first; j <= i; j++) {
      const rowJ = j * n;
      let sum = a[rowI + j];
      if (i === j) sum += jitter;
      for (let k = 0; k < j; k++) sum -= l[rowI + k] * l[rowJ + k];
      if (i === j) {
        if (!(sum > 0) || !Number.isFinite(sum)) return false;
        l[rowI + i] = Math.sqrt(sum);
      } else {
        l[rowI + j] = sum / l[rowJ + j];
      }
    }
    for (let j = i + 1; j < n; j++) l[rowI + j] = 0;
  }
  return true;
}

/**
 * Lower Cholesky factor L (row-major, upper triangle zeroed) of a symmetric positive-definite
 * n×n matrix A, reading only A's lower triangle. If A is not numerically positive definite, retries
 * with jitter·I added (jitter = initialJitter·mean(diag A), ×10 each try); after `maxTries` it
 * throws {@link NumericalError}. Returns the jitter that was needed (0 if none). `l` may alias `a`
 * only when no retry can happen; pass a separate buffer to keep A.
 */
export function cholesky(a: Float64Array, n: number, l: Float64Array, options: CholeskyOptions = {}): number {
  if (factorInPlace(a, n, l, 0)) return 0;
  let meanDiagonal = 0;
  for (let i = 0; i < n; i++) meanDiagonal += Math.abs(a[i * n + i]);
  meanDiagonal = n > 0 && meanDiagonal > 0 ? meanDiagonal / n : 1;
  let jitter = (options.initialJitter ?? 1e-10) * meanDiagonal;
  const maxTries = options.maxTries ?? 6;
  for (let attempt = 0; attempt < maxTries; attempt++, jitter *= 10) {
    if (factorInPlace(a, n, l, jitter)) return jitter;
  }
  throw new NumericalError(`${options.what ?? 'matrix'} is not positive definite, even with jitter ${(jitter / 10).toExponential(2)} added to the diagonal`, { field: options.what ?? 'matrix' });
}
