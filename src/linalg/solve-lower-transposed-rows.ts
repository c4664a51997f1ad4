/**
 * Solves Lᵀ·X = B in place for a row-major lower-triangular n×n L and a row-major n×cols B (every column
 * a right-hand side), a whole row of B at a time: row i −= L[k, i]·row k for k > i, four rows k per
 * pass, then ÷ L[i, i]. Each entry's arithmetic is that of {@link solveLowerTransposed} on its column,
 * bit for bit, but every inner loop runs along a row.
 */
export function solveLowerTransposedRows(l: Float64Array, n: number, b: Float64Array, cols: number): void {
  for (let i = n - 1; i >= 0; i--) {
    const row = i * cols;
    let k = i + 1;
    for (; k + 3 < n; k += 4) {
      const f0 = l[k * n + i];
      const f1 = l[(k + 1) * n + i];
      const f2 = l[(k + 2) * n + i];
      const f3 = l[(k + 3) * n + i];
      const s0 = k * cols;
      const s1 = s0 + cols;
      const s2 = s1 + cols;
      const s3 = s2 + cols;
      for (let c = 0; c < cols; c++) b[row + c] = b[row + c] - f0 * b[s0 + c] - f1 * b[s1 + c] - f2 * b[s2 + c] - f3 * b[s3 + c];
    }
    for (; k < n; k++) {
      const f = l[k * n + i];
      const source = k * cols;
      for (let c = 0; c < cols; c++) b[row + c] -= f * b[source + c];
    }
    const diagonal = l[i * n + i];
    for (let c = 0; c < cols; c++) b[row + c] /= diagonal;
  }
}
