import { denseKernels } from './dense-kernels.js';

/** From this many entries of A `gemv` and `quadraticForm` take their row sums from the dense kernels (below, the copies in cost more than they save). */
export const ROW_SUMS_KERNEL_FROM = 1024;

/**
 * out_i = Σ_j a_ij·x_{xOffset+j} for a row-major rows×cols A, each row's sum from +0 over j in order (bit for bit the
 * sums of `gemv`'s loop), by the dense kernels (wasm/dense-kernels.ts `gemvRows`, eight rows at a time) on copies of
 * A and x.
 */
export function rowSumsInKernels(a: Float64Array, rows: number, cols: number, x: Float64Array, xOffset: number, out: Float64Array): void {
  const aAt = denseKernels.reserve(rows * cols + cols + rows);
  const xAt = aAt + rows * cols;
  const outAt = xAt + cols;
  denseKernels.write(aAt, a, rows * cols);
  denseKernels.write(xAt, x, cols, xOffset);
  denseKernels.kernels.gemvRows(aAt * 8, rows, cols, xAt * 8, outAt * 8);
  denseKernels.read(outAt, out, rows);
}
