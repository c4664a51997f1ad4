import { gemmNnAccumulate } from './gemm-nn-accumulate.js';

/**
 * Solves Lᵀ·X = B in place for a row-major lower-triangular n×n L and a row-major n×cols B (every column a
 * right-hand side), in blocks of four rows from the bottom: the block −= Lᵀ[block, after]·X[after] by the
 * register-tiled {@link gemmNnAccumulate} (with −Lᵀ written into `negatedTranspose`, n×n scratch), then each
 * row of the block −= L[k, i]·row k for the later rows k of its block and × 1/L[i, i]. No allocation.
 * For square B (cols = n), `part` restricts the work to one triangle of X, each of its entries bit for bit
 * as in the full solve: 'lower' computes X on and below the diagonal (column j of X below the diagonal
 * needs only rows below it; a block of rows i < end takes the columns j < end, and what is above the
 * diagonal is left unspecified); 'upper', for upper-triangular B (then X = L⁻ᵀB is upper triangular),
 * computes the entries on and above the diagonal (a block from row i0 takes the columns j ≥ i0) and leaves
 * B's zeros below it.
 */
export function solveLowerTransposedTiled(l: Float64Array, n: number, b: Float64Array, cols: number, negatedTranspose: Float64Array,
  part?: 'lower' | 'upper'): void {
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) negatedTranspose[i * n + k] = -l[k * n + i];
  for (let a0 = n - 1 - ((n - 1) % 4); a0 >= 0; a0 -= 4) {
    const end = Math.min(n, a0 + 4);
    const first = part === 'upper' ? a0 : 0;
    const last = part === 'lower' ? end : cols;
    gemmNnAccumulate(b, a0 * cols + first, negatedTranspose, a0 * n + end, n, b, end * cols + first, end - a0, n - end, last - first, cols);
    for (let i = end - 1; i >= a0; i--) {
      const row = i * cols;
      for (let k = i + 1; k < end; k++) {
        const f = l[k * n + i];
        const source = k * cols;
        for (let c = first; c < last; c++) b[row + c] -= f * b[source + c];
      }
      const inverse = 1 / l[i * n + i];
      for (let c = first; c < last; c++) b[row + c] *= inverse;
    }
  }
}
