import { rowDotsPair } from './row-dots-pair.js';
import { rowDots } from './row-dots.js';

/**
 * out[a·stride + j] = Σ_i x[a·n + i]·y[j·n + i] for a < rows and j ≤ a (lower = true) or j < cols, two rows
 * of x at a time ({@link rowDotsPair}); bit for bit one {@link rowDots} per row.
 */
export function rowDotsRows(x: Float64Array, y: Float64Array, rows: number, cols: number, n: number, out: Float64Array, stride: number, lower: boolean): void {
  let a = 0;
  for (; a + 1 < rows; a += 2) {
    rowDotsPair(x, a * n, y, lower ? a : cols - 1, n, out, a * stride, (a + 1) * stride);
    if (!lower) continue;
    const r = (a + 1) * n;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += x[r + i] * y[r + i];
    out[(a + 1) * stride + a + 1] = sum;
  }
  if (a < rows) rowDots(x, a * n, y, lower ? a : cols - 1, n, out, a * stride);
}
