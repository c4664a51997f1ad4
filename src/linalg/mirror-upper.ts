/** Copies the upper triangle of a row-major n×n matrix over its lower one (A_ji = A_ij for j > i), making it exactly symmetric. */
export function mirrorUpper(a: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const row = i * n;
    for (let j = 0; j < i; j++) a[row + j] = a[j * n + i];
  }
}
