import { NumericalError } from '../core/numerical-error.js';
import { denseKernels } from './dense-kernels.js';

/** Options of {@link cholesky}. */
export interface CholeskyOptions {
  /** First jitter, relative to the mean diagonal; tried only after the plain factorisation fails. */
  readonly initialJitter?: number;
  /** How many times the jitter is multiplied by 10 and retried before giving up. */
  readonly maxTries?: number;
  /** Name used in the error message (e.g. "posterior precision"). */
  readonly what?: string;
}

/** Factors A + jitter·I from Float64 index `aAt` of the kernels' memory (L and Lᵀ after it) into `l` if it is positive definite. */
function factor(aAt: number, n: number, l: Float64Array, jitter: number): boolean {
  const lAt = aAt + n * n;
  if (denseKernels.kernels.choleskyFactor(aAt * 8, n, lAt * 8, (lAt + n * n) * 8, jitter) === 0) return false;
  denseKernels.read(lAt, l, n * n);
  return true;
}

/**
 * Lower Cholesky factor L (row-major, upper triangle zeroed) of a symmetric positive-definite
 * n×n matrix A, reading only A's lower triangle. If A is not numerically positive definite, retries
 * with jitter·I added (jitter = initialJitter·mean(diag A), ×10 each try); after `maxTries` it
 * throws {@link NumericalError}. Returns the jitter that was needed (0 if none). `l` may alias `a`.
 * The factorisation runs in the WebAssembly SIMD kernel (wasm/triangular-kernels.ts: row by row,
 * Cholesky–Banachiewicz, in 4×4 register tiles), every entry's terms in the order of the one-row loop, so
 * L is bit for bit that of the scalar formula; A is copied in once for all tries, L copied out on success.
 */
export function cholesky(a: Float64Array, n: number, l: Float64Array, options: CholeskyOptions = {}): number {
  const aAt = denseKernels.reserve(3 * n * n);
  denseKernels.write(aAt, a, n * n);
  if (factor(aAt, n, l, 0)) return 0;
  let meanDiagonal = 0;
  for (let i = 0; i < n; i++) meanDiagonal += Math.abs(a[i * n + i]);
  meanDiagonal = n > 0 && meanDiagonal > 0 ? meanDiagonal / n : 1;
  let jitter = (options.initialJitter ?? 1e-10) * meanDiagonal;
  const maxTries = options.maxTries ?? 6;
  for (let attempt = 0; attempt < maxTries; attempt++, jitter *= 10) {
    if (factor(aAt, n, l, jitter)) return jitter;
  }
  throw new NumericalError(`${options.what ?? 'matrix'} is not positive definite, even with jitter ${(jitter / 10).toExponential(2)} added to the diagonal`, { field: options.what ?? 'matrix' });
}
