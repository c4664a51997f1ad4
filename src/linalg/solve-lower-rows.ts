import { gemmNnAccumulate } from './gemm-nn-accumulate.js';

/**
 * Solves L·X = B in place for a row-major lower-triangular n×n L and a row-major n×cols B (every column a
 * right-hand side), in blocks of four rows: the block −= L[block, before]·X[before] by the register-tiled
 * {@link gemmNnAccumulate} (with −L written into `negated`, n×n scratch), then the block's own triangle in
 * one pass along its rows (row i −= L[i, k]·row k for the earlier rows k of the block, in order, × 1/L[i, i]).
 * No allocation. With `part` 'lower', for square lower-triangular B (then X = L⁻¹B is lower triangular), only the
 * entries on and below the diagonal are computed (a block of rows i < end takes the columns j < end), each bit
 * for bit as in the full solve, and the zeros above it stay zero.
 */
export function solveLowerRows(l: Float64Array, n: number, b: Float64Array, cols: number, negated: Float64Array, part?: 'lower'): void {
  for (let e = 0; e < n * n; e++) negated[e] = -l[e];
  let a0 = 0;
  for (; a0 + 3 < n; a0 += 4) {
    const last = part === 'lower' ? Math.min(cols, a0 + 4) : cols;
    gemmNnAccumulate(b, a0 * cols, negated, a0 * n, n, b, 0, 4, a0, last, cols);
    const r0 = a0 * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    const l10 = l[r1 + a0];
    const l20 = l[r2 + a0];
    const l21 = l[r2 + a0 + 1];
    const l30 = l[r3 + a0];
    const l31 = l[r3 + a0 + 1];
    const l32 = l[r3 + a0 + 2];
    const i0 = 1 / l[r0 + a0];
    const i1 = 1 / l[r1 + a0 + 1];
    const i2 = 1 / l[r2 + a0 + 2];
    const i3 = 1 / l[r3 + a0 + 3];
    const o0 = a0 * cols;
    const o1 = o0 + cols;
    const o2 = o1 + cols;
    const o3 = o2 + cols;
    for (let c = 0; c < last; c++) {
      const x0 = b[o0 + c] * i0;
      const x1 = (b[o1 + c] - l10 * x0) * i1;
      const x2 = (b[o2 + c] - l20 * x0 - l21 * x1) * i2;
      const x3 = (b[o3 + c] - l30 * x0 - l31 * x1 - l32 * x2) * i3;
      b[o0 + c] = x0;
      b[o1 + c] = x1;
      b[o2 + c] = x2;
      b[o3 + c] = x3;
    }
  }
  if (a0 === n) return;
  gemmNnAccumulate(b, a0 * cols, negated, a0 * n, n, b, 0, n - a0, a0, cols);
  for (let i = a0; i < n; i++) {
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
