/** log det A = 2·Σ log Lᵢᵢ from A's Cholesky factor L (row-major; with `step` 1, from L's diagonal alone). */
export function logDetCholesky(l: Float64Array, n: number, step = n + 1): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.log(l[i * step]);
  return 2 * sum;
}
