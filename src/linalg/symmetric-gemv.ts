/**
 * out = A·x for a symmetric row-major n×n A, reading only its upper triangle (j ≥ i; the lower
 * may be stale): each stored A_ij with j > i contributes to out_i and out_j (BLAS dsymv). x is read
 * from `x[xOffset ..]`.
 */
export function symmetricGemv(a: Float64Array, n: number, x: Float64Array, out: Float64Array, xOffset = 0): void {
  out.fill(0, 0, n);
  for (let i = 0; i < n; i++) {
    const base = i * n;
    const xi = x[xOffset + i];
    let sum = a[base + i] * xi;
    for (let j = i + 1; j < n; j++) {
      const v = a[base + j];
      sum += v * x[xOffset + j];
      out[j] += v * xi;
    }
    out[i] += sum;
  }
}
