/**
 * τ² = xᵀΣx = ‖Lᵀx‖² for the record at `base` of `x` (d features), L the lower Cholesky factor of Σ
 * (row-major d×d; only its diagonal read when `full` is false); Lᵀx is written into `u`. O(d²).
 */
export function rowVariance(factor: Float64Array, d: number, x: Float64Array, base: number, u: Float64Array, full = true): number {
  let tau2 = 0;
  for (let b = 0; b < d; b++) {
    let sum = 0;
    for (let a = b; a < (full ? d : b + 1); a++) sum += factor[a * d + b] * x[base + a];
    u[b] = sum;
    tau2 += sum * sum;
  }
  return tau2;
}
