import { cholesky, type CholeskyOptions } from './cholesky.js';
import { choleskyInverse } from './cholesky-inverse.js';
import { logDetCholesky } from './log-det-cholesky.js';

/**
 * Inverse and log-determinant of a symmetric positive-definite matrix through its Cholesky factor
 * (with jitter-and-retry, then a typed error): writes A⁻¹ into `inverse` and returns log det A.
 * `work` (n×n) holds the factor; pass one to avoid allocation.
 */
export function spdInverse(a: Float64Array, n: number, inverse: Float64Array, work: Float64Array = new Float64Array(n * n), options: CholeskyOptions = {}): number {
  cholesky(a, n, work, options);
  choleskyInverse(work, n, inverse);
  return logDetCholesky(work, n);
}
