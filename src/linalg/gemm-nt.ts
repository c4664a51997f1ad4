/**
 * out[i·ldo + j] = Σ_{q<n} x[i·n + q]·y[j·n + q] (X Yᵀ for row-major X, m×n, and Y, p×n) for i < m and j < p,
 * or only j ≤ i when `lower` (nothing above the diagonal is written). Register-tiled 4×4 (sixteen running
 * sums, each loaded value used four times); every entry's sum runs over q in order from 0, so the result is
 * bit for bit that of the plain dot product whatever m, p and n. With `yTriangle`, Y is square (p = n) and
 * triangular with exact zeros off its triangle, X finite: the zero terms of a 4×4 tile's columns are skipped
 * ('lower': q < j + 4; 'upper': q ≥ j), which changes no bit (a sum from +0 is never −0, so adding ±0 keeps it).
 */
export function gemmNt(out: Float64Array, ldo: number, x: Float64Array, y: Float64Array, m: number, p: number, n: number, lower: boolean,
  yTriangle?: 'lower' | 'upper'): void {
  let i = 0;
  for (; i + 3 < m; i += 4) {
    const x0 = i * n;
    const x1 = x0 + n;
    const x2 = x1 + n;
    const x3 = x2 + n;
    const o0 = i * ldo;
    const o1 = o0 + ldo;
    const o2 = o1 + ldo;
    const o3 = o2 + ldo;
    const end = lower ? Math.min(p, i + 4) : p;
    let j = 0;
    for (; j + 3 < end; j += 4) {
      const from = yTriangle === 'upper' ? j : 0;
      const to = yTriangle === 'lower' ? Math.min(n, j + 4) : n;
      const y0 = j * n;
      const y1 = y0 + n;
      const y2 = y1 + n;
      const y3 = y2 + n;
      let c00 = 0;
      let c01 = 0;
      let c02 = 0;
      let c03 = 0;
      let c10 = 0;
      let c11 = 0;
      let c12 = 0;
      let c13 = 0;
      let c20 = 0;
      let c21 = 0;
      let c22 = 0;
      let c23 = 0;
      let c30 = 0;
      let c31 = 0;
      let c32 = 0;
      let c33 = 0;
      for (let q = from; q < to; q++) {
        const a0 = x[x0 + q];
        const a1 = x[x1 + q];
        const a2 = x[x2 + q];
        const a3 = x[x3 + q];
        const b0 = y[y0 + q];
        const b1 = y[y1 + q];
        const b2 = y[y2 + q];
        const b3 = y[y3 + q];
        c00 += a0 * b0;
        c01 += a0 * b1;
        c02 += a0 * b2;
        c03 += a0 * b3;
        c10 += a1 * b0;
        c11 += a1 * b1;
        c12 += a1 * b2;
        c13 += a1 * b3;
        c20 += a2 * b0;
        c21 += a2 * b1;
        c22 += a2 * b2;
        c23 += a2 * b3;
        c30 += a3 * b0;
        c31 += a3 * b1;
        c32 += a3 * b2;
        c33 += a3 * b3;
      }
      const diagonal = lower && j === i;
      out[o0 + j] = c00;
      if (!diagonal) {
        out[o0 + j + 1] = c01;
        out[o0 + j + 2] = c02;
        out[o0 + j + 3] = c03;
        out[o1 + j + 2] = c12;
        out[o1 + j + 3] = c13;
        out[o2 + j + 3] = c23;
      }
      out[o1 + j] = c10;
      out[o1 + j + 1] = c11;
      out[o2 + j] = c20;
      out[o2 + j + 1] = c21;
      out[o2 + j + 2] = c22;
      out[o3 + j] = c30;
      out[o3 + j + 1] = c31;
      out[o3 + j + 2] = c32;
      out[o3 + j + 3] = c33;
    }
    for (let r = 0; r < 4; r++) {
      const last = lower ? Math.min(p, i + r + 1) : p;
      for (let c = j; c < last; c++) out[(i + r) * ldo + c] = dotRows(x, (i + r) * n, y, c * n, n, c, yTriangle);
    }
  }
  for (; i < m; i++) {
    const last = lower ? Math.min(p, i + 1) : p;
    for (let j = 0; j < last; j++) out[i * ldo + j] = dotRows(x, i * n, y, j * n, n, j, yTriangle);
  }
}

/** Σ_q x[xa + q]·y[ya + q] over q < n, or over row j of a triangular Y's own triangle. */
function dotRows(x: Float64Array, xa: number, y: Float64Array, ya: number, n: number, j: number, yTriangle: 'lower' | 'upper' | undefined): number {
  const from = yTriangle === 'upper' ? j : 0;
  const to = yTriangle === 'lower' ? Math.min(n, j + 1) : n;
  let sum = 0;
  for (let q = from; q < to; q++) sum += x[xa + q] * y[ya + q];
  return sum;
}
