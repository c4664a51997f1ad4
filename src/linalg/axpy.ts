/** y[yOffset+i] += alpha·x[xOffset+i] for i < n (BLAS daxpy, unit stride). */
export function axpy(alpha: number, x: Float64Array, y: Float64Array, n: number, xOffset = 0, yOffset = 0): void {
  for (let i = 0; i < n; i++) y[yOffset + i] += alpha * x[xOffset + i];
}
