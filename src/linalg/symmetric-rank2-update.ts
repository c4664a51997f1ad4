/**
 * A += alpha·x·xᵀ + beta·u·uᵀ in one pass for an exactly symmetric row-major n×n matrix (both triangles
 * stored, A_ij = A_ji bit for bit): each entry A_ij, i ≤ j, gets (alpha·x_i)·x_j and then (beta·u_i)·u_j
 * and A_ji takes the result, so A stays exactly symmetric: bit for bit `symmetricRank1Update` with x and
 * then with u, but for a row whose two coefficients are both 0 (skipped, as there) or one of them 0
 * (where that update adds ±0 and the row-skip of the other does not).
 */
export function symmetricRank2Update(a: Float64Array, n: number, alpha: number, x: Float64Array, beta: number, u: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const s = alpha * x[i];
    const t = beta * u[i];
    if (s === 0 && t === 0) continue;
    const base = i * n;
    a[base + i] = a[base + i] + s * x[i] + t * u[i];
    let below = base + n + i;
    for (let j = i + 1; j < n; j++, below += n) {
      const value = a[base + j] + s * x[j] + t * u[j];
      a[base + j] = value;
      a[below] = value;
    }
  }
}
