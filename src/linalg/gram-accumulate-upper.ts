import { denseKernels } from './dense-kernels.js';

/**
 * out += alpha·Xᵀ·diag(w)·X on the upper triangle only (j ≥ i; the lower triangle keeps its values) for a
 * row-major n×d X (w omitted means all ones). Runs the WebAssembly SIMD kernel (wasm/dense-kernels.ts) on copies
 * of X and out (out comes back whole): 4×4 register blocks of out over tiles of 64 rows, two columns per vector;
 * every entry still receives its rows' terms (alpha·w_r·x_ri)·x_rj one by one in row order, so any split of a
 * stream into batches gives bit-identical sums.
 */
export function gramAccumulateUpper(x: Float64Array, n: number, d: number, out: Float64Array, w?: Float64Array, alpha = 1): void {
  const xAt = denseKernels.reserve(2 * n * d + d * d + n);
  const outAt = xAt + n * d;
  const wAt = outAt + d * d;
  const scaledAt = wAt + n;
  denseKernels.write(xAt, x, n * d);
  denseKernels.write(outAt, out, d * d);
  if (w !== undefined) denseKernels.write(wAt, w, n);
  denseKernels.kernels.gramAccumulateUpper(xAt * 8, n, d, outAt * 8, alpha, w === undefined ? 0 : wAt * 8, scaledAt * 8);
  denseKernels.read(outAt, out, d * d);
}
