import { denseKernels } from './dense-kernels.js';

/**
 * out = A·x for a symmetric row-major n×n A, reading only its upper triangle (j ≥ i; the lower
 * may be stale): each stored A_ij with j > i contributes to out_i and out_j (BLAS dsymv). x is read
 * from `x[xOffset ..]`. Runs the WebAssembly SIMD kernel (wasm/symmetric-kernels.ts) on copies of A and x, bit for
 * bit the loop `for i: s = A_ii·x_i; for j > i: { s += A_ij·x_j; out_j += A_ij·x_i }; out_i += s` from out = 0.
 */
export function symmetricGemv(a: Float64Array, n: number, x: Float64Array, out: Float64Array, xOffset = 0): void {
  const aAt = denseKernels.reserve(n * n + 2 * n);
  const xAt = aAt + n * n;
  const outAt = xAt + n;
  denseKernels.write(aAt, a, n * n);
  denseKernels.write(xAt, x, n, xOffset);
  denseKernels.kernels.symmetricGemvUpper(aAt * 8, n, xAt * 8, outAt * 8);
  denseKernels.read(outAt, out, n);
}
