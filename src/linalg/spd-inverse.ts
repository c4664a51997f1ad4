import type { CholeskyOptions } from './cholesky.js';
import { denseKernels } from './dense-kernels.js';
import { factorInKernels } from './factor-in-kernels.js';
import { logDetCholesky } from './log-det-cholesky.js';

/**
 * Inverse and log-determinant of a symmetric positive-definite matrix through its Cholesky factor
 * (with jitter-and-retry, then a typed error): writes A⁻¹ into `inverse` and returns log det A.
 * `work` (n×n), when given, receives the factor; without it only the factor's diagonal is read (for log det A). The factor and the inverse are those of
 * {@link cholesky} and {@link choleskyInverse} bit for bit; L stays in the WebAssembly module's memory between
 * the two kernels (A copied in once, A⁻¹ and L copied out once).
 */
export function spdInverse(a: Float64Array, n: number, inverse: Float64Array, work?: Float64Array, options: CholeskyOptions = {}): number {
  const { lAt } = factorInKernels(a, n, options);
  const outAt = lAt - n * n;
  denseKernels.kernels.choleskyInverse(lAt * 8, n, outAt * 8, (lAt + n * n) * 8);
  denseKernels.read(outAt, inverse, n * n);
  if (work !== undefined) {
    denseKernels.read(lAt, work, n * n);
    return logDetCholesky(work, n);
  }
  const diagonal = new Float64Array(n);
  for (let i = 0; i < n; i++) denseKernels.read(lAt + i * (n + 1), diagonal, 1, i);
  return logDetCholesky(diagonal, n, 1);
}
