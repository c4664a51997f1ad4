/**
 * xᵀ·A·x for a symmetric row-major n×n A, reading only its upper triangle: Σᵢ Aᵢᵢxᵢ² + 2Σ_{i<j} Aᵢⱼxᵢxⱼ,
 * half the multiplications of the general {@link quadraticForm}. x is read from `x[xOffset ..]`.
 */
export function symmetricQuadraticForm(a: Float64Array, n: number, x: Float64Array, xOffset = 0): number {
  let diagonal = 0;
  let offDiagonal = 0;
  for (let i = 0; i < n; i++) {
    const xi = x[xOffset + i];
    const base = i * n;
    diagonal += a[base + i] * xi * xi;
    let row = 0;
    for (let j = i + 1; j < n; j++) row += a[base + j] * x[xOffset + j];
    offDiagonal += xi * row;
  }
  return diagonal + 2 * offDiagonal;
}
