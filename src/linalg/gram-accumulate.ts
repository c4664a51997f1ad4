import { gramAccumulateUpper } from './gram-accumulate-upper.js';

/**
 * out += alpha·Xᵀ·diag(w)·X for a row-major n×d X (w omitted means all ones), both triangles
 * written so `out` stays exactly symmetric. Used for XᵀX and the 2·Xᵀ·Λ(ξ)·X of Drugowitsch eq. (46).
 * The upper triangle takes the rows' terms (alpha·w_r·x_ri)·x_rj in row order ({@link gramAccumulateUpper}),
 * so the sums are bit for bit those of one rank-1 update per row; then it is mirrored. With `y` and `xty`, also
 * xty += alpha·Xᵀ·diag(w)·y in the same call (the terms (alpha·w_r·y_r)·x_rj in row order).
 */
export function gramAccumulate(x: Float64Array, n: number, d: number, out: Float64Array, alpha = 1, w?: Float64Array, y?: Float64Array, xty?: Float64Array): void {
  gramAccumulateUpper(x, n, d, out, w, alpha, y, xty);
  for (let i = 0; i < d; i++) for (let j = i + 1; j < d; j++) out[j * d + i] = out[i * d + j];
}
