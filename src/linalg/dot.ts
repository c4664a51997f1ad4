/** Σᵢ a[aOffset+i]·b[bOffset+i] for i < n (BLAS ddot, unit stride). */
export function dot(a: Float64Array, b: Float64Array, n: number, aOffset = 0, bOffset = 0): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += a[aOffset + i] * b[bOffset + i];
  return sum;
}
