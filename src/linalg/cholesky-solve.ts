import { solveLower } from './solve-lower.js';
import { solveLowerTransposed } from './solve-lower-transposed.js';

/** Solves A·x = b given A's lower Cholesky factor L (A = L·Lᵀ); `out` may alias `b`. */
export function choleskySolve(l: Float64Array, n: number, b: Float64Array, out: Float64Array): void {
  solveLower(l, n, b, out);
  solveLowerTransposed(l, n, out, out);
}
