import { denseKernels } from './dense-kernels.js';

/**
 * Solves L·X = B in place for a row-major lower-triangular n×n L and a row-major n×cols B (every column a
 * right-hand side). Runs the WebAssembly SIMD kernel (wasm/triangular-kernels.ts) on copies of L and B: blocks
 * of four rows, the block −= L[block, before]·X[before] by the register-tiled A·S product, then the block's own
 * triangle along its rows (row i −= L[i, k]·row k for the earlier rows k of the block, in order, × 1/L[i, i]),
 * two columns per vector, each entry bit for bit as in the scalar formula. No allocation. With `part` 'lower',
 * for square lower-triangular B (then X = L⁻¹B is lower triangular), only the entries on and below the diagonal
 * are computed (a block of rows i < end takes the columns j < end), each bit for bit as in the full solve, and
 * the zeros above it stay zero.
 */
export function solveLowerRows(l: Float64Array, n: number, b: Float64Array, cols: number, part?: 'lower'): void {
  const lAt = denseKernels.reserve(2 * n * n + n * cols);
  const bAt = lAt + n * n;
  denseKernels.write(lAt, l, n * n);
  denseKernels.write(bAt, b, n * cols);
  denseKernels.kernels.solveLowerRows(lAt * 8, n, bAt * 8, cols, (bAt + n * cols) * 8, part === 'lower' ? 1 : 0);
  denseKernels.read(bAt, b, n * cols);
}
