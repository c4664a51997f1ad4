/** xᵀ·A·x for a row-major n×n A, with x read from `x[xOffset ..]`. */
export function quadraticForm(a: Float64Array, n: number, x: Float64Array, xOffset = 0): number {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    let row = 0;
    const base = i * n;
    for (let j = 0; j < n; j++) row += a[base + j] * x[xOffset + j];
    sum += x[xOffset + i] * row;
  }
  return sum;
}
