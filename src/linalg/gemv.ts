import { ROW_SUMS_KERNEL_FROM, rowSumsInKernels } from './row-sums-in-kernels.js';

/**
 * out = alpha·A·x + beta·out for a row-major rows×cols matrix A (BLAS dgemv, no transpose);
 * x is read from `x[xOffset ..]` and must not overlap `out`. With beta = 0, `out` need not be
 * initialised. Eight rows are summed together (eight independent accumulators sharing each load of
 * x); every row's sum still runs over j in order, so the result is that of one row at a time. With beta = 0 and
 * A of {@link ROW_SUMS_KERNEL_FROM} entries or more, the same sums come from the dense kernels ({@link rowSumsInKernels}).
 */
export function gemv(a: Float64Array, rows: number, cols: number, x: Float64Array, out: Float64Array, alpha = 1, beta = 0, xOffset = 0): void {
  if (beta === 0 && rows * cols >= ROW_SUMS_KERNEL_FROM) {
    rowSumsInKernels(a, rows, cols, x, xOffset, out);
    if (alpha !== 1) for (let r = 0; r < rows; r++) out[r] = alpha * out[r];
    return;
  }
  let i = 0;
  for (; i + 8 <= rows; i += 8) {
    const r0 = i * cols;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    let s5 = 0;
    let s6 = 0;
    let s7 = 0;
    for (let j = 0; j < cols; j++) {
      const v = x[xOffset + j];
      const r = r0 + j;
      s0 += a[r] * v;
      s1 += a[r + cols] * v;
      s2 += a[r + 2 * cols] * v;
      s3 += a[r + 3 * cols] * v;
      s4 += a[r + 4 * cols] * v;
      s5 += a[r + 5 * cols] * v;
      s6 += a[r + 6 * cols] * v;
      s7 += a[r + 7 * cols] * v;
    }
    out[i] = beta === 0 ? alpha * s0 : alpha * s0 + beta * out[i];
    out[i + 1] = beta === 0 ? alpha * s1 : alpha * s1 + beta * out[i + 1];
    out[i + 2] = beta === 0 ? alpha * s2 : alpha * s2 + beta * out[i + 2];
    out[i + 3] = beta === 0 ? alpha * s3 : alpha * s3 + beta * out[i + 3];
    out[i + 4] = beta === 0 ? alpha * s4 : alpha * s4 + beta * out[i + 4];
    out[i + 5] = beta === 0 ? alpha * s5 : alpha * s5 + beta * out[i + 5];
    out[i + 6] = beta === 0 ? alpha * s6 : alpha * s6 + beta * out[i + 6];
    out[i + 7] = beta === 0 ? alpha * s7 : alpha * s7 + beta * out[i + 7];
  }
  for (; i < rows; i++) {
    let sum = 0;
    const base = i * cols;
    for (let j = 0; j < cols; j++) sum += a[base + j] * x[xOffset + j];
    out[i] = beta === 0 ? alpha * sum : alpha * sum + beta * out[i];
  }
}
