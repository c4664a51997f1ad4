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

function factorInPlace(a: Float64Array, n: number, l: Float64Array, jitter: number): boolean {
  for (let i = 0; i < n; i++) {
    const rowI = i * n;
    for (let j = 0; j <= i; j++) {
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
