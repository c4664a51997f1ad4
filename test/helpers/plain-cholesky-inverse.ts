/**
 * A⁻¹ = (L⁻¹)ᵀL⁻¹ by the column-by-column formulas: L⁻¹_ij = (−Σ_{j ≤ k < i} l_ik·L⁻¹_kj)/l_ii (k ascending, from
 * 0), then entry (i, j) = Σ_{k ≥ i} L⁻¹_ki·L⁻¹_kj (k ascending, from 0), mirrored.
 */
export function plainCholeskyInverse(l: Float64Array, n: number): Float64Array {
  const inv = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    inv[j * n + j] = 1 / l[j * n + j];
    for (let i = j + 1; i < n; i++) {
      let sum = 0;
      for (let k = j; k < i; k++) sum -= l[i * n + k] * inv[k * n + j];
      inv[i * n + j] = sum / l[i * n + i];
    }
  }
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = 0;
      for (let k = i; k < n; k++) sum += inv[k * n + i] * inv[k * n + j];
      out[i * n + j] = sum;
      out[j * n + i] = sum;
    }
  }
  return out;
}
