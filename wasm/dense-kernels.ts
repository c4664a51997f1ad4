// AssemblyScript: the dense kernels of src/linalg as WebAssembly with 128-bit SIMD (f64x2). Pointers are byte
// offsets into the module's memory, matrices row-major Float64. Every kernel keeps the operation order of the
// scalar formula it replaces (each output's terms added one by one in the same order; no fused multiply-add),
// so results are bit for bit those of that formula.

import { storeTile } from './register-tile';

/** First byte free for callers' data. */
export function heapBase(): usize {
  return __heap_base;
}

/**
 * out += Xᵀ·diag(c)·X on the upper triangle (j ≥ i) for a row-major n×d X, where c_r = alpha·w_r (alpha when
 * w = 0). Rows four at a time in tiles of 64 (a row of out stays in cache across a tile); entry (i, j) gets
 * its rows' terms in row order, two j per SIMD lane pair.
 */
export function gramAccumulateUpper(x: usize, n: i32, d: i32, out: usize, alpha: f64, w: usize): void {
  const stride = <usize>d << 3;
  for (let t0 = 0; t0 < n; t0 += 64) {
    const t1 = min(n, t0 + 64);
    for (let i = 0; i < d; i++) {
      const row = out + (<usize>(i * d) << 3);
      const column = <usize>i << 3;
      let r = t0;
      for (; r + 4 <= t1; r += 4) {
        const b0 = x + <usize>r * stride;
        const b1 = b0 + stride;
        const b2 = b1 + stride;
        const b3 = b2 + stride;
        const s0 = scale(alpha, w, r) * load<f64>(b0 + column);
        const s1 = scale(alpha, w, r + 1) * load<f64>(b1 + column);
        const s2 = scale(alpha, w, r + 2) * load<f64>(b2 + column);
        const s3 = scale(alpha, w, r + 3) * load<f64>(b3 + column);
        const v0 = f64x2.splat(s0);
        const v1 = f64x2.splat(s1);
        const v2 = f64x2.splat(s2);
        const v3 = f64x2.splat(s3);
        let j = i;
        for (; j + 2 <= d; j += 2) {
          const at = <usize>j << 3;
          let o = v128.load(row + at);
          o = f64x2.add(o, f64x2.mul(v0, v128.load(b0 + at)));
          o = f64x2.add(o, f64x2.mul(v1, v128.load(b1 + at)));
          o = f64x2.add(o, f64x2.mul(v2, v128.load(b2 + at)));
          o = f64x2.add(o, f64x2.mul(v3, v128.load(b3 + at)));
          v128.store(row + at, o);
        }
        if (j < d) {
          const at = <usize>j << 3;
          let o = load<f64>(row + at);
          o += s0 * load<f64>(b0 + at);
          o += s1 * load<f64>(b1 + at);
          o += s2 * load<f64>(b2 + at);
          o += s3 * load<f64>(b3 + at);
          store<f64>(row + at, o);
        }
      }
      for (; r < t1; r++) {
        const base = x + <usize>r * stride;
        const s = scale(alpha, w, r) * load<f64>(base + column);
        const v = f64x2.splat(s);
        let j = i;
        for (; j + 2 <= d; j += 2) {
          const at = <usize>j << 3;
          v128.store(row + at, f64x2.add(v128.load(row + at), f64x2.mul(v, v128.load(base + at))));
        }
        if (j < d) {
          const at = <usize>j << 3;
          store<f64>(row + at, load<f64>(row + at) + s * load<f64>(base + at));
        }
      }
    }
  }
}

// @ts-ignore: decorator
@inline
function scale(alpha: f64, w: usize, r: i32): f64 {
  return w == 0 ? alpha : alpha * load<f64>(w + (<usize>r << 3));
}

/**
 * out[i·ldo + j] = Σ_{q<n} x[i·n + q]·y[j·n + q] for i < m, j < p (only j ≤ i when lower), each sum over q in
 * order from 0. Y is packed four rows at a time into `panel` (n·4 doubles, q-major) so a 4×4 tile takes two
 * vector loads of Y and four splats of X per q. yTriangle: 0 none, 1 Y lower-triangular (q < j + 4 in a tile),
 * 2 Y upper-triangular (q ≥ j): zero terms skipped, which changes no bit.
 */
export function gemmNt(out: usize, ldo: i32, x: usize, y: usize, m: i32, p: i32, n: i32, lower: bool, yTriangle: i32, panel: usize): void {
  const rowBytes = <usize>n << 3;
  const outRow = <usize>ldo << 3;
  let j = 0;
  for (; j + 3 < p; j += 4) {
    const y0 = y + <usize>j * rowBytes;
    for (let q = 0; q < n; q++) {
      const at = <usize>q << 3;
      const to = panel + (<usize>q << 5);
      store<f64>(to, load<f64>(y0 + at));
      store<f64>(to, load<f64>(y0 + rowBytes + at), 8);
      store<f64>(to, load<f64>(y0 + 2 * rowBytes + at), 16);
      store<f64>(to, load<f64>(y0 + 3 * rowBytes + at), 24);
    }
    const from = yTriangle == 2 ? j : 0;
    const until = yTriangle == 1 ? min(n, j + 4) : n;
    let i = lower ? j & ~3 : 0;
    if (lower && i < j) i = j;
    for (; i + 3 < m; i += 4) {
      const x0 = x + <usize>i * rowBytes;
      const x1 = x0 + rowBytes;
      const x2 = x1 + rowBytes;
      const x3 = x2 + rowBytes;
      let c0a = f64x2.splat(0);
      let c0b = f64x2.splat(0);
      let c1a = f64x2.splat(0);
      let c1b = f64x2.splat(0);
      let c2a = f64x2.splat(0);
      let c2b = f64x2.splat(0);
      let c3a = f64x2.splat(0);
      let c3b = f64x2.splat(0);
      for (let q = from; q < until; q++) {
        const at = <usize>q << 3;
        const b = panel + (<usize>q << 5);
        const ba = v128.load(b);
        const bb = v128.load(b, 16);
        const a0 = f64x2.splat(load<f64>(x0 + at));
        const a1 = f64x2.splat(load<f64>(x1 + at));
        const a2 = f64x2.splat(load<f64>(x2 + at));
        const a3 = f64x2.splat(load<f64>(x3 + at));
        c0a = f64x2.add(c0a, f64x2.mul(a0, ba));
        c0b = f64x2.add(c0b, f64x2.mul(a0, bb));
        c1a = f64x2.add(c1a, f64x2.mul(a1, ba));
        c1b = f64x2.add(c1b, f64x2.mul(a1, bb));
        c2a = f64x2.add(c2a, f64x2.mul(a2, ba));
        c2b = f64x2.add(c2b, f64x2.mul(a2, bb));
        c3a = f64x2.add(c3a, f64x2.mul(a3, ba));
        c3b = f64x2.add(c3b, f64x2.mul(a3, bb));
      }
      storeTile(out + <usize>i * outRow + (<usize>j << 3), outRow, lower && i == j, c0a, c0b, c1a, c1b, c2a, c2b, c3a, c3b);
    }
    for (; i < m; i++) {
      const last = lower ? min(j + 4, i + 1) : j + 4;
      for (let c = j; c < last; c++) store<f64>(out + <usize>i * outRow + (<usize>c << 3), dotRows(x + <usize>i * rowBytes, y + <usize>c * rowBytes, n, c, yTriangle));
    }
  }
  for (; j < p; j++) {
    for (let i = lower ? j : 0; i < m; i++) store<f64>(out + <usize>i * outRow + (<usize>j << 3), dotRows(x + <usize>i * rowBytes, y + <usize>j * rowBytes, n, j, yTriangle));
  }
}

/** Σ_q x[q]·y[q] over q < n, or over row j of a triangular Y's own triangle (yTriangle 1 lower, 2 upper). */
function dotRows(x: usize, y: usize, n: i32, j: i32, yTriangle: i32): f64 {
  const from = yTriangle == 2 ? j : 0;
  const until = yTriangle == 1 ? min(n, j + 1) : n;
  let sum: f64 = 0;
  for (let q = from; q < until; q++) sum += load<f64>(x + (<usize>q << 3)) * load<f64>(y + (<usize>q << 3));
  return sum;
}

export { choleskyFactor, choleskyInverse, gemmNnAccumulate, lowerTransposedTimesTiled, solveLowerRows, solveLowerTransposedTiled } from './triangular-kernels';
