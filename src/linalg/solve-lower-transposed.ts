/** Solves Lᵀ·x = b by back substitution for a row-major lower-triangular n×n L; `out` may alias `b`. */
export function solveLowerTransposed(l: Float64Array, n: number, b: Float64Array, out: Float64Array): void {
  for (let i = n - 1; i >= 0; i--) {
    let sum = b[i];
    for (let k = i + 1; k < n; k++) sum -= l[k * n + i] * out[k];
    out[i] = sum / l[i * n + i];
  }
}
