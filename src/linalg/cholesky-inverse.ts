/**
 * A⁻¹ from A's lower Cholesky factor L, written as a full symmetric row-major matrix into `out`
 * (which must not alias `l`). Computes L⁻¹ column by column then (L⁻¹)ᵀL⁻¹; O(n³).
 */
export function choleskyInverse(l: Float64Array, n: number, out: Float64Array, work: Float64Array = new Float64Array(n * n)): void {
  const inv = work;
  inv.fill(0);
  for (let j = 0; j < n; j++) {
    inv[j * n + j] = 1 / l[j * n + j];
    for (let i = j + 1; i < n; i++) {
      let sum = 0;
      for (let k = j; k < i; k++) sum -= l[i * n + k] * inv[k * n + j];
      inv[i * n + j] = sum / l[i * n + i];
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = 0;
      for (let k = i; k < n; k++) sum += inv[k * n + i] * inv[k * n + j];
      out[i * n + j] = sum;
      out[j * n + i] = sum;
    }
  }
}
