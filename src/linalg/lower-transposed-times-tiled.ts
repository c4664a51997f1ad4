import { gemmNnAccumulate } from './gemm-nn-accumulate.js';

/**
 * out = Lᵀ·src for a row-major lower-triangular M×M L and M rows of length n (row-major), in blocks of four
 * rows of out by the register-tiled {@link gemmNnAccumulate}: block rows a0… take Σ_{b ≥ a0} Lᵀ[a, b]·src[b, :]
 * with Lᵀ written into `transposed` (M×M scratch; the zeros of its lower part make the terms b < a vanish).
 * Every entry's terms are added in the order b = a0, a0 + 1, …; no allocation. With `part` 'lower' (for n = M)
 * only the entries on and below the diagonal are computed (block rows a < end take the columns j < end, so a
 * few above the diagonal too), the rest of `out` is 0.
 */
export function lowerTransposedTimesTiled(out: Float64Array, src: Float64Array, l: Float64Array, M: number, n: number, transposed: Float64Array,
  part?: 'lower'): void {
  for (let a = 0; a < M; a++) {
    for (let b = 0; b < a; b++) transposed[a * M + b] = 0;
    for (let b = a; b < M; b++) transposed[a * M + b] = l[b * M + a];
  }
  out.fill(0, 0, M * n);
  for (let a0 = 0; a0 < M; a0 += 4) {
    const rows = Math.min(4, M - a0);
    gemmNnAccumulate(out, a0 * n, transposed, a0 * M + a0, M, src, a0 * n, rows, M - a0, part === 'lower' ? Math.min(n, a0 + rows) : n, n);
  }
}
