import { ROW_SUMS_KERNEL_FROM, rowSumsInKernels } from './row-sums-in-kernels.js';

/**
 * xᵀ·A·x for a row-major n×n A, with x read from `x[xOffset ..]`: Σ_i x_i·(Σ_j A_ij·x_j), each row's sum over j in
 * order and the outer sum over i in order. Four rows' sums run side by side (independent chains, so the loop is
 * not bound by one addition's latency); the order of every sum is unchanged. From {@link ROW_SUMS_KERNEL_FROM} entries
 * the row sums come from the dense kernels ({@link rowSumsInKernels}, the same sums).
 */
export function quadraticForm(a: Float64Array, n: number, x: Float64Array, xOffset = 0): number {
  let sum = 0;
  if (n * n >= ROW_SUMS_KERNEL_FROM) {
    const rowSums = new Float64Array(n);
    rowSumsInKernels(a, n, n, x, xOffset, rowSums);
    for (let i = 0; i < n; i++) sum += x[xOffset + i] * rowSums[i];
    return sum;
  }
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const b0 = i * n;
    const b1 = b0 + n;
    const b2 = b1 + n;
    const b3 = b2 + n;
    let r0 = 0;
    let r1 = 0;
    let r2 = 0;
    let r3 = 0;
    for (let j = 0; j < n; j++) {
      const v = x[xOffset + j];
      r0 += a[b0 + j] * v;
      r1 += a[b1 + j] * v;
      r2 += a[b2 + j] * v;
      r3 += a[b3 + j] * v;
    }
    sum += x[xOffset + i] * r0;
    sum += x[xOffset + i + 1] * r1;
    sum += x[xOffset + i + 2] * r2;
    sum += x[xOffset + i + 3] * r3;
  }
  for (; i < n; i++) {
    let row = 0;
    const base = i * n;
    for (let j = 0; j < n; j++) row += a[base + j] * x[xOffset + j];
    sum += x[xOffset + i] * row;
  }
  return sum;
}
