import { gemmNnAccumulate } from './gemm-nn-accumulate.js';

/**
 * Solves L·X = B in place for a row-major lower-triangular n×n L and a row-major n×cols B (every column a
 * right-hand side), in blocks of four rows: the block −= L[block, before]·X[before] by the register-tiled
 * {@link gemmNnAccumulate} (with −L written into `negated`, n×n scratch), then each row of the block
 * −= L[i, k]·row k for the earlier rows k of its block and × 1/L[i, i]. No allocation.
 */
export function solveLowerRows(l: Float64Array, n: number, b: Float64Array, cols: number, negated: Float64Array): void {
  for (let e = 0; e < n * n; e++) negated[e] = -l[e];
  for (let a0 = 0; a0 < n; a0 += 4) {
    const rows = Math.min(4, n - a0);
    gemmNnAccumulate(b, a0 * cols, negated, a0 * n, n, b, 0, rows, a0, cols);
    for (let i = a0; i < a0 + rows; i++) {
      const row = i * cols;
      for (let k = a0; k < i; k++) {
        const f = l[i * n + k];
        const source = k * cols;
        for (let c = 0; c < cols; c++) b[row + c] -= f * b[source + c];
      }
      const inverse = 1 / l[i * n + i];
      for (let c = 0; c < cols; c++) b[row + c] *= inverse;
    }
  }
}
