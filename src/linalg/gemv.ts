/**
 * out = alpha·A·x + beta·out for a row-major rows×cols matrix A (BLAS dgemv, no transpose);
 * x is read from `x[xOffset ..]` and must not overlap `out`. With beta = 0, `out` need not be
 * initialised. Four rows are summed together (four independent accumulators sharing each load of
 * x); every row's sum still runs over j in order, so the result is that of one row at a time.
 */
export function gemv(a: Float64Array, rows: number, cols: number, x: Float64Array, out: Float64Array, alpha = 1, beta = 0, xOffset = 0): void {
  let i = 0;
  for (; i + 4 <= rows; i += 4) {
    const r0 = i * cols;
    const r1 = r0 + cols;
    const r2 = r1 + cols;
    const r3 = r2 + cols;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let j = 0; j < cols; j++) {
      const v = x[xOffset + j];
      s0 += a[r0 + j] * v;
      s1 += a[r1 + j] * v;
      s2 += a[r2 + j] * v;
      s3 += a[r3 + j] * v;
    }
    out[i] = beta === 0 ? alpha * s0 : alpha * s0 + beta * out[i];
    out[i + 1] = beta === 0 ? alpha * s1 : alpha * s1 + beta * out[i + 1];
    out[i + 2] = beta === 0 ? alpha * s2 : alpha * s2 + beta * out[i + 2];
    out[i + 3] = beta === 0 ? alpha * s3 : alpha * s3 + beta * out[i + 3];
  }
  for (; i < rows; i++) {
    let sum = 0;
    const base = i * cols;
    for (let j = 0; j < cols; j++) sum += a[base + j] * x[xOffset + j];
    out[i] = beta === 0 ? alpha * sum : alpha * sum + beta * out[i];
  }
}
