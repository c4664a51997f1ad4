import { denseKernels } from './dense-kernels.js';

/**
 * One record x (from `x[xOffset ..]`, weight alpha) into a statistic A (as XᵀX) and the inverse B of A plus a
 * fixed diagonal (as V_N), row-major n×n kept on their upper triangles (j ≥ i; the lower ones keep their values):
 * u = B·x ({@link symmetricGemv}'s order) unless `haveU` (then `u` holds it), q = xᵀu (summed in order, as `dot`),
 * A_ij += (alpha·x_i)·x_j and B_ij += β·(u_i·u_j) with β = −alpha/(1 + alpha·q) (Sherman–Morrison, Drugowitsch eq. 85).
 * Writes u to `u` and returns q. One WebAssembly SIMD call (wasm/symmetric-kernels.ts) on copies of A, B, x and u.
 */
export function shermanMorrisonPairUpper(a: Float64Array, alpha: number, x: Float64Array, xOffset: number, b: Float64Array, u: Float64Array, n: number, haveU: boolean): number {
  const aAt = denseKernels.reserve(2 * n * n + 2 * n);
  const bAt = aAt + n * n;
  const xAt = bAt + n * n;
  const uAt = xAt + n;
  denseKernels.write(aAt, a, n * n);
  denseKernels.write(bAt, b, n * n);
  denseKernels.write(xAt, x, n, xOffset);
  if (haveU) denseKernels.write(uAt, u, n);
  const q = denseKernels.kernels.shermanMorrisonPairUpper(aAt * 8, alpha, xAt * 8, bAt * 8, uAt * 8, n, haveU ? 1 : 0);
  denseKernels.read(aAt, a, n * n);
  denseKernels.read(bAt, b, n * n);
  if (!haveU) denseKernels.read(uAt, u, n);
  return q;
}
