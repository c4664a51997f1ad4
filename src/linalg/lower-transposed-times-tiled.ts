import { denseKernels } from './dense-kernels.js';

/**
 * out = Lᵀ·src for a row-major lower-triangular M×M L and M rows of length n (row-major). Runs the WebAssembly
 * SIMD kernel (wasm/triangular-kernels.ts) on copies of L and src: blocks of four rows of out by the
 * register-tiled A·S product, block rows a0… taking Σ_{b ≥ a0} Lᵀ[a, b]·src[b, :] (the zeros of Lᵀ's lower part
 * make the terms b < a vanish); every entry's terms are added in the order b = a0, a0 + 1, …; no allocation.
 * With `part` 'lower' (for n = M) only the entries on and below the diagonal are computed (block rows a < end
 * take the columns j < end, so a few above the diagonal too), the rest of `out` is 0.
 */
export function lowerTransposedTimesTiled(out: Float64Array, src: Float64Array, l: Float64Array, M: number, n: number, part?: 'lower'): void {
  const lAt = denseKernels.reserve(2 * M * M + 2 * M * n);
  const srcAt = lAt + M * M;
  const outAt = srcAt + M * n;
  denseKernels.write(lAt, l, M * M);
  denseKernels.write(srcAt, src, M * n);
  denseKernels.kernels.lowerTransposedTimesTiled(outAt * 8, srcAt * 8, lAt * 8, M, n, (outAt + M * n) * 8, part === 'lower' ? 1 : 0);
  denseKernels.read(outAt, out, M * n);
}
