/**
 * out = alpha·A·x + beta·out for a row-major rows×cols matrix A (BLAS dgemv, no transpose);
 * x is read from `x[xOffset ..]`. With beta = 0, `out` need not be initialised.
 */
export function gemv(a: Float64Array, rows: number, cols: number, x: Float64Array, out: Float64Array, alpha = 1, beta = 0, xOffset = 0): void {
  for (let i = 0; i < rows; i++) {
    let sum = 0;
    const base = i * cols;
    for (let j = 0; j < cols; j++) sum += a[base + j] * x[xOffset + j];
    out[i] = beta === 0 ? alpha * sum : alpha * sum + beta * out[i];
  }
}
