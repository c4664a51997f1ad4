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
    for (let k = 0; k < i; k++) {
      const f = l[row + k];
      const source = k * n;
      for (let j = 0; j <= k; j++) inv[row + j] -= f * inv[source + j];
    }
    const diagonal = l[row + i];
    for (let j = 0; j < i; j++) inv[row + j] /= diagonal;
    inv[row + i] = 1 / diagonal;
  }
  out.fill(0, 0, n * n);
  for (let k = 0; k < n; k++) {
    const source = k * n;
    for (let i = 0; i <= k; i++) {
      const f = inv[source + i];
      const row = i * n;
      for (let j = 0; j <= i; j++) out[row + j] += f * inv[source + j];
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) out[j * n + i] = out[i * n + j];
}
