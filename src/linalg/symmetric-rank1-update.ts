/**
 * A += alpha·x·xᵀ for a full (both triangles stored) row-major n×n symmetric matrix (BLAS dsyr).
 * x is read from `x[xOffset ..]`. Writing both triangles keeps A exactly symmetric; `below` walks
 * column i down the rows under the diagonal (A_ji) as j walks row i.
 */
export function symmetricRank1Update(a: Float64Array, n: number, alpha: number, x: Float64Array, xOffset = 0): void {
  for (let i = 0; i < n; i++) {
    const s = alpha * x[xOffset + i];
    if (s === 0) continue;
    const base = i * n;
    a[base + i] += s * x[xOffset + i];
    let below = base + n + i;
    for (let j = i + 1; j < n; j++, below += n) {
      const v = s * x[xOffset + j];
      a[base + j] += v;
      a[below] += v;
    }
  }
}
