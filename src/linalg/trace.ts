/** Trace of a row-major n×n matrix. */
export function trace(a: Float64Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += a[i * n + i];
  return sum;
}
