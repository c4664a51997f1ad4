/** log det A = 2·Σ log Lᵢᵢ from A's Cholesky factor L (row-major). */
export function logDetCholesky(l: Float64Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.log(l[i * n + i]);
  return 2 * sum;
}
