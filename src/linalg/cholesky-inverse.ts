/**
 * A⁻¹ from A's lower Cholesky factor L, written as a full symmetric row-major matrix into `out`
 * (which must not alias `l`). Computes L⁻¹ by forward substitution then (L⁻¹)ᵀL⁻¹, both accumulated
 * along rows (every entry's sum in the order of the column-by-column formulas); O(n³).
 */
export function choleskyInverse(l: Float64Array, n: number, out: Float64Array, work: Float64Array = new Float64Array(n * n)): void {
  const inv = work;
  inv.fill(0);
  for (let i = 0; i < n; i++) {
    const row = i * n;
    // Four k at a time: entry j takes the terms of k ≥ j in ascending k, as one k at a time would.
    let k = 0;
    for (; k + 3 < i; k += 4) {
      const f0 = l[row + k];
      const f1 = l[row + k + 1];
      const f2 = l[row + k + 2];
      const f3 = l[row + k + 3];
      const a0 = k * n;
      const a1 = a0 + n;
      const a2 = a1 + n;
      const a3 = a2 + n;
      for (let j = 0; j <= k; j++) inv[row + j] = inv[row + j] - f0 * inv[a0 + j] - f1 * inv[a1 + j] - f2 * inv[a2 + j] - f3 * inv[a3 + j];
      inv[row + k + 1] = inv[row + k + 1] - f1 * inv[a1 + k + 1] - f2 * inv[a2 + k + 1] - f3 * inv[a3 + k + 1];
      inv[row + k + 2] = inv[row + k + 2] - f2 * inv[a2 + k + 2] - f3 * inv[a3 + k + 2];
      inv[row + k + 3] -= f3 * inv[a3 + k + 3];
    }
    for (; k < i; k++) {
      const f = l[row + k];
      const source = k * n;
      for (let j = 0; j <= k; j++) inv[row + j] -= f * inv[source + j];
    }
    const diagonal = l[row + i];
    for (let j = 0; j < i; j++) inv[row + j] /= diagonal;
    inv[row + i] = 1 / diagonal;
  }
  // (L⁻¹)ᵀL⁻¹: entry (i, j ≤ i) is Σ_{k ≥ i} L⁻¹_ki·L⁻¹_kj, k ascending. Row k of L⁻¹ is copied to
  // column k of out's upper triangle (t_ik = L⁻¹_ki), so each sum is a dot product of two rows of t,
  // four j at a time sharing the loads of row i; the result goes to the lower triangle, the diagonal
  // last (t_ii is needed only by row i), then it is mirrored.
  for (let k = 0; k < n; k++) for (let i = 0; i <= k; i++) out[i * n + k] = inv[k * n + i];
  for (let i = 0; i < n; i++) {
    const rowI = i * n;
    let j = 0;
    for (; j + 3 < i; j += 4) {
      const r0 = j * n;
      const r1 = r0 + n;
      const r2 = r1 + n;
      const r3 = r2 + n;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let k = i; k < n; k++) {
        const f = out[rowI + k];
        s0 += f * out[r0 + k];
        s1 += f * out[r1 + k];
        s2 += f * out[r2 + k];
        s3 += f * out[r3 + k];
      }
      out[rowI + j] = s0;
      out[rowI + j + 1] = s1;
      out[rowI + j + 2] = s2;
      out[rowI + j + 3] = s3;
    }
    for (; j < i; j++) {
      const rowJ = j * n;
      let sum = 0;
      for (let k = i; k < n; k++) sum += out[rowI + k] * out[rowJ + k];
      out[rowI + j] = sum;
    }
    let diagonal = 0;
    for (let k = i; k < n; k++) diagonal += out[rowI + k] * out[rowI + k];
    out[rowI + i] = diagonal;
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) out[j * n + i] = out[i * n + j];
}
