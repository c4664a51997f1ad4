import { denseKernels } from './dense-kernels.js';

/**
 * out[o + i·ld + j] += Σ_{q<k} a[ao + i·lda + q]·src[s + q·ld + j] for i < m, j < n: a row-major m×k block of
 * A (row stride lda) times an n-column block of k rows of a row-major matrix (row stride ld, n by default),
 * added to an n-column block of m rows of `out` (row stride ld). Runs the WebAssembly SIMD kernel
 * (wasm/triangular-kernels.ts: 4×4 register tiles, two columns per vector) on packed copies of the three
 * blocks; every entry starts from its value in `out` and adds its k terms one by one in order q = 0, 1, …, so
 * the result is bit for bit that of the plain triple loop whatever m and n. `out` must not overlap the rows of
 * `src` read.
 */
export function gemmNnAccumulate(out: Float64Array, o: number, a: Float64Array, ao: number, lda: number, src: Float64Array, s: number,
  m: number, k: number, n: number, ld = n): void {
  const aAt = denseKernels.reserve(m * k + k * n + m * n);
  const srcAt = aAt + m * k;
  const outAt = srcAt + k * n;
  const f64 = denseKernels.f64;
  for (let i = 0; i < m; i++) for (let q = 0; q < k; q++) f64[aAt + i * k + q] = a[ao + i * lda + q];
  for (let q = 0; q < k; q++) for (let j = 0; j < n; j++) f64[srcAt + q * n + j] = src[s + q * ld + j];
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) f64[outAt + i * n + j] = out[o + i * ld + j];
  denseKernels.kernels.gemmNnAccumulate(outAt * 8, n, aAt * 8, k, srcAt * 8, n, m, k, n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) out[o + i * ld + j] = f64[outAt + i * n + j];
}
