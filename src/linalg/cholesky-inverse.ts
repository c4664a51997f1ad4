import { denseKernels } from './dense-kernels.js';

/**
 * A⁻¹ from A's lower Cholesky factor L, written as a full symmetric row-major matrix into `out` (which may alias
 * `l`). Runs the WebAssembly SIMD kernel (wasm/triangular-kernels.ts) on a copy of L: L⁻¹ by forward
 * substitution in 4×4 register tiles, then (L⁻¹)ᵀL⁻¹ in register tiles, every entry's sum in the order of the
 * column-by-column formulas, so bit for bit as those (L finite, as every factor from {@link cholesky} is);
 * O(n³), no allocation.
 */
export function choleskyInverse(l: Float64Array, n: number, out: Float64Array): void {
  const lAt = denseKernels.reserve(3 * n * n);
  const outAt = lAt + n * n;
  denseKernels.write(lAt, l, n * n);
  denseKernels.kernels.choleskyInverse(lAt * 8, n, outAt * 8, (outAt + n * n) * 8);
  denseKernels.read(outAt, out, n * n);
}
