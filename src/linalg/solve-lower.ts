/** Solves L·x = b by forward substitution for a row-major lower-triangular n×n L; `out` may alias `b`. */
export function solveLower(l: Float64Array, n: number, b: Float64Array, out: Float64Array): void {
  for (let i = 0; i < n; i++) {
    let sum = b[i];
    const row = i * n;
    for (let k = 0; k < i; k++) sum -= l[row + k] * out[k];
    out[i] = sum / l[row + i];
  }
}
