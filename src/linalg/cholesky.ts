import { denseKernels } from './dense-kernels.js';
import { factorInKernels, type CholeskyOptions } from './factor-in-kernels.js';

export type { CholeskyOptions } from './factor-in-kernels.js';

/**
 * Lower Cholesky factor L (row-major, upper triangle zeroed) of a symmetric positive-definite
 * n×n matrix A, reading only A's lower triangle. If A is not numerically positive definite, retries
 * with jitter·I added (jitter = initialJitter·mean(diag A), ×10 each try); after `maxTries` it
 * throws `NumericalError`. Returns the jitter that was needed (0 if none). `l` may alias `a`.
 * The factorisation runs in the WebAssembly SIMD kernel ({@link factorInKernels}; wasm/triangular-kernels.ts:
 * on Lᵀ, column blocks of four in 4×4 register tiles, two rows of L per vector), every entry's terms in the
 * order of the one-row loop (Cholesky–Banachiewicz), so L is bit for bit that of the scalar formula; A is
 * copied in once for all tries, L copied out on success.
 */
export function cholesky(a: Float64Array, n: number, l: Float64Array, options: CholeskyOptions = {}): number {
  const { jitter, lAt } = factorInKernels(a, n, options);
  denseKernels.read(lAt, l, n * n);
  return jitter;
}
