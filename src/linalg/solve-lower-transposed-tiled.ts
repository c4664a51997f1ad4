import { denseKernels } from './dense-kernels.js';

const PART_CODE = { lower: 1, upper: 2 } as const;

/**
 * Solves Lᵀ·X = B in place for a row-major lower-triangular n×n L and a row-major n×cols B (every column a
 * right-hand side). Runs the WebAssembly SIMD kernel (wasm/triangular-kernels.ts) on copies of L and B: blocks
 * of four rows from the bottom, the block −= Lᵀ[block, after]·X[after] by the register-tiled A·S product, then
 * each row of the block −= L[k, i]·row k for the later rows k of its block and × 1/L[i, i], two columns per
 * vector, each entry bit for bit as in the scalar formula. No allocation.
 * For square B (cols = n), `part` restricts the work to one triangle of X, each of its entries bit for bit
 * as in the full solve: 'lower' computes X on and below the diagonal (column j of X below the diagonal
 * needs only rows below it; a block of rows i < end takes the columns j < end, and what is above the
 * diagonal is left unspecified); 'upper', for upper-triangular B (then X = L⁻ᵀB is upper triangular),
 * computes the entries on and above the diagonal (a block from row i0 takes the columns j ≥ i0) and leaves
 * B's zeros below it.
 */
export function solveLowerTransposedTiled(l: Float64Array, n: number, b: Float64Array, cols: number, part?: 'lower' | 'upper'): void {
  const lAt = denseKernels.reserve(2 * n * n + n * cols);
  const bAt = lAt + n * n;
  denseKernels.write(lAt, l, n * n);
  denseKernels.write(bAt, b, n * cols);
  denseKernels.kernels.solveLowerTransposedTiled(lAt * 8, n, bAt * 8, cols, (bAt + n * cols) * 8, part === undefined ? 0 : PART_CODE[part]);
  denseKernels.read(bAt, b, n * cols);
}
