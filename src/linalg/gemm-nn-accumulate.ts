import { denseKernels } from './dense-kernels.js';

/**
 * out[o + i·ld + j] += Σ_{q<k} a[ao + i·lda + q]·src[s + q·ld + j] for i < m, j < n: a row-major m×k block of
 * A (row stride lda) times an n-column block of k rows of a row-major matrix (row stride ld, n by default),
 * added to an n-column block of m rows of `out` (row stride ld). Runs the WebAssembly SIMD kernel
 * (wasm/triangular-kernels.ts: 4×4 register tiles, two columns per vector) on copies of the three blocks' spans
 * (that of `out` goes back whole; what lies between its rows comes back unchanged). Every entry starts from its
 * value in `out` and adds its k terms one by one in order q = 0, 1, …, so the result is bit for bit that of the
 * plain triple loop whatever m and n. `out` must not overlap the rows of `src` read.
 */
export function gemmNnAccumulate(out: Float64Array, o: number, a: Float64Array, ao: number, lda: number, src: Float64Array, s: number,
  m: number, k: number, n: number, ld = n): void {
  if (m === 0 || n === 0) return;
  const aSpan = k === 0 ? 0 : (m - 1) * lda + k;
  const srcSpan = k === 0 ? 0 : (k - 1) * ld + n;
  const outSpan = (m - 1) * ld + n;
  const aAt = denseKernels.reserve(aSpan + srcSpan + outSpan);
  const srcAt = aAt + aSpan;
  const outAt = srcAt + srcSpan;
  denseKernels.write(aAt, a, aSpan, ao);
  denseKernels.write(srcAt, src, srcSpan, s);
  denseKernels.write(outAt, out, outSpan, o);
  denseKernels.kernels.gemmNnAccumulate(outAt * 8, ld, aAt * 8, lda, srcAt * 8, ld, m, k, n);
  denseKernels.read(outAt, out, outSpan, o);
}
