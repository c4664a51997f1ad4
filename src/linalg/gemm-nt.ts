import { denseKernels } from './dense-kernels.js';

const TRIANGLE_CODE = { lower: 1, upper: 2 } as const;

/**
 * out[i·ldo + j] = Σ_{q<n} x[i·n + q]·y[j·n + q] (X Yᵀ for row-major X, m×n, and Y, p×n) for i < m and j < p,
 * or only j ≤ i when `lower` (what is above the diagonal keeps its values). Runs the WebAssembly SIMD kernel
 * (wasm/dense-kernels.ts: 4×4 register tiles over Y packed four rows at a time) on copies of X, Y and the span
 * of `out` (which comes back whole, the entries not computed unchanged); every entry's sum runs over
 * q in order from 0, so the result is bit for bit that of the plain dot product whatever m, p and n. With
 * `yTriangle`, Y is square (p = n) and triangular with exact zeros off its triangle, X finite: the zero terms
 * of a tile's columns are skipped, which changes no bit (a sum from +0 is never −0, so adding ±0 keeps it).
 */
export function gemmNt(out: Float64Array, ldo: number, x: Float64Array, y: Float64Array, m: number, p: number, n: number, lower: boolean,
  yTriangle?: 'lower' | 'upper'): void {
  if (m === 0 || p === 0) return;
  const same = x === y && m === p;
  const outSpan = (m - 1) * ldo + p;
  const xAt = denseKernels.reserve(m * n + (same ? 0 : p * n) + outSpan + 4 * n);
  const yAt = same ? xAt : xAt + m * n;
  const outAt = yAt + (same ? m * n : p * n);
  const panelAt = outAt + outSpan;
  denseKernels.write(xAt, x, m * n);
  if (!same) denseKernels.write(yAt, y, p * n);
  denseKernels.write(outAt, out, outSpan);
  denseKernels.kernels.gemmNt(outAt * 8, ldo, xAt * 8, yAt * 8, m, p, n, lower ? 1 : 0, yTriangle === undefined ? 0 : TRIANGLE_CODE[yTriangle], panelAt * 8);
  denseKernels.read(outAt, out, outSpan);
}
