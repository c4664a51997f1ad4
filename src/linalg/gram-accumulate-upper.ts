import { denseKernels } from './dense-kernels.js';

/**
 * out += alpha·Xᵀ·diag(w)·X on the upper triangle only (j ≥ i; the lower triangle keeps its values) for a
 * row-major n×d X (w omitted means all ones), and with `y` and `xty` given also xty += alpha·Xᵀ·diag(w)·y (the
 * terms (alpha·w_r·y_r)·x_rj). Runs the WebAssembly SIMD kernel (wasm/dense-kernels.ts) on copies of X, y and the
 * outputs (which come back whole; X is not copied again when the batch's check staged it, see `allWithin`): 4×4 register blocks of out over tiles of 64 rows, two columns per vector;
 * every entry still receives its rows' terms (alpha·w_r·x_ri)·x_rj one by one in row order, so any split of a
 * stream into batches gives bit-identical sums.
 */
export function gramAccumulateUpper(x: Float64Array, n: number, d: number, out: Float64Array, w?: Float64Array, alpha = 1, y?: Float64Array, xty?: Float64Array): void {
  const targets = y !== undefined && xty !== undefined;
  // X staged by the batch's check is at the start of the scratch, where `reserve` puts xAt.
  const staged = denseKernels.holds(x, n * d);
  const xAt = denseKernels.reserve(2 * n * d + d * d + n + (targets ? n + d : 0));
  const outAt = xAt + n * d;
  const wAt = outAt + d * d;
  const scaledAt = wAt + n;
  const yAt = scaledAt + n * d;
  const xtyAt = yAt + n;
  if (!staged) denseKernels.write(xAt, x, n * d);
  denseKernels.write(outAt, out, d * d);
  if (w !== undefined) denseKernels.write(wAt, w, n);
  if (targets) {
    denseKernels.write(yAt, y, n);
    denseKernels.write(xtyAt, xty, d);
  }
  denseKernels.kernels.gramAccumulateUpper(xAt * 8, n, d, outAt * 8, alpha, w === undefined ? 0 : wAt * 8, scaledAt * 8, targets ? yAt * 8 : 0, targets ? xtyAt * 8 : 0);
  denseKernels.read(outAt, out, d * d);
  if (targets) denseKernels.read(xtyAt, xty, d);
}
