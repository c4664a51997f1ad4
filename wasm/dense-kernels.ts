// AssemblyScript: the dense kernels of src/linalg as WebAssembly with 128-bit SIMD (f64x2). Pointers are byte
// offsets into the module's memory, matrices row-major Float64. Every kernel keeps the operation order of the
// scalar formula it replaces (each output's terms added one by one in the same order; no fused multiply-add),
// so results are bit for bit those of that formula.

import { accumulateTile, storeTile } from './register-tile';

/** First byte free for callers' data. */
export function heapBase(): usize {
  return __heap_base;
}

/**
 * out += Xᵀ·diag(c)·X on the upper triangle (j ≥ i) for a row-major n×d X, where c_r = alpha·w_r (alpha when
 * w = 0): entry (i, j) += s_ri·x_rj with s_ri = c_r·x_ri, for r = 0, 1, … in order. S is written to `scaled`
 * (n·d doubles) first unless c_r = 1 (then S = X). Rows in tiles of 64; within a tile, out is taken in 4×4
 * register blocks (two columns per vector) that are loaded once, take every row of the tile, and are stored
 * once; the last d mod 4 rows of out one row at a time. With `xty` ≠ 0, also xty_j += (c_r·y_r)·x_rj for r = 0, 1, …
 * in order (the targets' column Xᵀ·diag(c)·y, two entries per vector).
 */
export function gramAccumulateUpper(x: usize, n: i32, d: i32, out: usize, alpha: f64, w: usize, scaled: usize, y: usize, xty: usize): void {
  if (xty != 0) targetsAccumulate(x, n, d, alpha, w, y, xty);
  const stride = <usize>d << 3;
  let sx = x;
  if (alpha != 1 || w != 0) {
    sx = scaled;
    for (let r = 0; r < n; r++) {
      const c = scale(alpha, w, r);
      const from = x + <usize>r * stride;
      const to = scaled + <usize>r * stride;
      for (let k = 0; k < d; k++) store<f64>(to + (<usize>k << 3), c * load<f64>(from + (<usize>k << 3)));
    }
  }
  for (let t0 = 0; t0 < n; t0 += 64) {
    const t1 = min(n, t0 + 64);
    let i = 0;
    for (; i + 4 <= d; i += 4) {
      let j = i;
      for (; j + 4 <= d; j += 4) gramBlock4x4(x, sx, stride, t0, t1, i, j, out);
      for (; j < d; j++) gramBlock4x1(x, sx, stride, t0, t1, i, j, out);
    }
    for (; i < d; i++) gramRow(x, sx, stride, t0, t1, i, d, out);
  }
}

/** xty_j += (c_r·y_r)·x_rj over the rows r in order, c_r = alpha·w_r (alpha when w = 0). */
function targetsAccumulate(x: usize, n: i32, d: i32, alpha: f64, w: usize, y: usize, xty: usize): void {
  const stride = <usize>d << 3;
  for (let r = 0; r < n; r++) {
    const c = scale(alpha, w, r) * load<f64>(y + (<usize>r << 3));
    const v = f64x2.splat(c);
    const row = x + <usize>r * stride;
    let j = 0;
    for (; j + 2 <= d; j += 2) {
      const at = <usize>j << 3;
      v128.store(xty + at, f64x2.add(v128.load(xty + at), f64x2.mul(v, v128.load(row + at))));
    }
    if (j < d) {
      const at = <usize>j << 3;
      store<f64>(xty + at, load<f64>(xty + at) + c * load<f64>(row + at));
    }
  }
}

/** A 4×4 tile of scratch (16 doubles) for the tiles that are stored in part. */
const TILE = memory.data(128, 16);

/**
 * Rows i…i+3, columns j…j+3 of out over rows t0…t1−1 of S and X ({@link accumulateTile} on out itself; a tile on
 * the diagonal, j = i, goes through {@link TILE} and only its entries on and above the diagonal come back).
 */
// @ts-ignore: decorator
@inline
function gramBlock4x4(x: usize, sx: usize, stride: usize, t0: i32, t1: i32, i: i32, j: i32, out: usize): void {
  const o = out + <usize>i * stride + (<usize>j << 3);
  const s = sx + <usize>t0 * stride + (<usize>i << 3);
  const b = x + <usize>t0 * stride + (<usize>j << 3);
  if (i != j) {
    accumulateTile(o, stride, s, 8, stride, b, stride, t1 - t0, false);
    return;
  }
  for (let r = 0; r < 4; r++) {
    v128.store(TILE + (<usize>r << 5), v128.load(o + <usize>r * stride));
    v128.store(TILE + (<usize>r << 5), v128.load(o + <usize>r * stride, 16), 16);
  }
  accumulateTile(TILE, 32, s, 8, stride, b, stride, t1 - t0, false);
  for (let r = 0; r < 4; r++) for (let c = r; c < 4; c++) store<f64>(o + <usize>r * stride + (<usize>c << 3), load<f64>(TILE + (<usize>r << 5) + (<usize>c << 3)));
}

/** Rows i…i+3 of column j > i + 3 of out over rows t0…t1−1 of X (the columns right of the last 4×4 block). */
// @ts-ignore: decorator
@inline
function gramBlock4x1(x: usize, sx: usize, stride: usize, t0: i32, t1: i32, i: i32, j: i32, out: usize): void {
  const o0 = out + <usize>i * stride + (<usize>j << 3);
  let c0 = load<f64>(o0);
  let c1 = load<f64>(o0 + stride);
  let c2 = load<f64>(o0 + 2 * stride);
  let c3 = load<f64>(o0 + 3 * stride);
  const ci = <usize>i << 3;
  const cj = <usize>j << 3;
  for (let r = t0; r < t1; r++) {
    const srow = sx + <usize>r * stride + ci;
    const b = load<f64>(x + <usize>r * stride + cj);
    c0 += load<f64>(srow) * b;
    c1 += load<f64>(srow, 8) * b;
    c2 += load<f64>(srow, 16) * b;
    c3 += load<f64>(srow, 24) * b;
  }
  store<f64>(o0, c0);
  store<f64>(o0 + stride, c1);
  store<f64>(o0 + 2 * stride, c2);
  store<f64>(o0 + 3 * stride, c3);
}

/** Row i of out, columns i…d−1, over rows t0…t1−1 of X, a row of X at a time (two columns per vector). */
function gramRow(x: usize, sx: usize, stride: usize, t0: i32, t1: i32, i: i32, d: i32, out: usize): void {
  const o = out + <usize>i * stride;
  const ci = <usize>i << 3;
  for (let r = t0; r < t1; r++) {
    const row = x + <usize>r * stride;
    const s = load<f64>(sx + <usize>r * stride + ci);
    const v = f64x2.splat(s);
    let j = i;
    for (; j + 2 <= d; j += 2) {
      const at = <usize>j << 3;
      v128.store(o + at, f64x2.add(v128.load(o + at), f64x2.mul(v, v128.load(row + at))));
    }
    if (j < d) {
      const at = <usize>j << 3;
      store<f64>(o + at, load<f64>(o + at) + s * load<f64>(row + at));
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
      memory.fill(TILE, 0, 128);
      accumulateTile(TILE, 32, x0 + (<usize>from << 3), rowBytes, 8, panel + (<usize>from << 5), 32, until - from, false);
      storeTile(out + <usize>i * outRow + (<usize>j << 3), outRow, lower && i == j, v128.load(TILE), v128.load(TILE, 16), v128.load(TILE, 32), v128.load(TILE, 48),
        v128.load(TILE, 64), v128.load(TILE, 80), v128.load(TILE, 96), v128.load(TILE, 112));
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
export { shermanMorrisonPairUpper, symmetricGemvUpper } from './symmetric-kernels';

/** Whether each of the `length` values from `x` is within ±max (|v| ≤ max; NaN is not): eight values a step, two per compare. */
export function allWithin(x: usize, length: i32, max: f64): bool {
  const limit = f64x2.splat(max);
  let within = i64x2.splat(-1);
  let k = 0;
  for (; k + 8 <= length; k += 8) {
    const at = x + (<usize>k << 3);
    const a = v128.and(f64x2.le(f64x2.abs(v128.load(at)), limit), f64x2.le(f64x2.abs(v128.load(at, 16)), limit));
    const b = v128.and(f64x2.le(f64x2.abs(v128.load(at, 32)), limit), f64x2.le(f64x2.abs(v128.load(at, 48)), limit));
    within = v128.and(within, v128.and(a, b));
  }
  for (; k < length; k++) if (!(abs<f64>(load<f64>(x + (<usize>k << 3))) <= max)) return false;
  return i64x2.all_true(within);
}

/**
 * out_i = Σ_j a_ij·x_j for a row-major rows×cols A, every row's sum from +0 over j in order (the loop of `gemv`):
 * eight rows at a time, two columns a step, the products of two rows shuffled into one vector per column (each
 * lane one row's chain); the last rows mod 8 one at a time.
 */
export function gemvRows(a: usize, rows: i32, cols: i32, x: usize, out: usize): void {
  const stride = <usize>cols << 3;
  let i = 0;
  for (; i + 8 <= rows; i += 8) {
    const r0 = a + <usize>i * stride;
    let s01 = f64x2.splat(0);
    let s23 = f64x2.splat(0);
    let s45 = f64x2.splat(0);
    let s67 = f64x2.splat(0);
    let j = 0;
    for (; j + 2 <= cols; j += 2) {
      const c = r0 + (<usize>j << 3);
      const xs = v128.load(x + (<usize>j << 3));
      const p0 = f64x2.mul(v128.load(c), xs);
      const p1 = f64x2.mul(v128.load(c + stride), xs);
      const p2 = f64x2.mul(v128.load(c + 2 * stride), xs);
      const p3 = f64x2.mul(v128.load(c + 3 * stride), xs);
      const p4 = f64x2.mul(v128.load(c + 4 * stride), xs);
      const p5 = f64x2.mul(v128.load(c + 5 * stride), xs);
      const p6 = f64x2.mul(v128.load(c + 6 * stride), xs);
      const p7 = f64x2.mul(v128.load(c + 7 * stride), xs);
      s01 = f64x2.add(f64x2.add(s01, v128.shuffle<f64>(p0, p1, 0, 2)), v128.shuffle<f64>(p0, p1, 1, 3));
      s23 = f64x2.add(f64x2.add(s23, v128.shuffle<f64>(p2, p3, 0, 2)), v128.shuffle<f64>(p2, p3, 1, 3));
      s45 = f64x2.add(f64x2.add(s45, v128.shuffle<f64>(p4, p5, 0, 2)), v128.shuffle<f64>(p4, p5, 1, 3));
      s67 = f64x2.add(f64x2.add(s67, v128.shuffle<f64>(p6, p7, 0, 2)), v128.shuffle<f64>(p6, p7, 1, 3));
    }
    if (j < cols) {
      const c = r0 + (<usize>j << 3);
      const xj = f64x2.splat(load<f64>(x + (<usize>j << 3)));
      s01 = f64x2.add(s01, f64x2.mul(f64x2(load<f64>(c), load<f64>(c + stride)), xj));
      s23 = f64x2.add(s23, f64x2.mul(f64x2(load<f64>(c + 2 * stride), load<f64>(c + 3 * stride)), xj));
      s45 = f64x2.add(s45, f64x2.mul(f64x2(load<f64>(c + 4 * stride), load<f64>(c + 5 * stride)), xj));
      s67 = f64x2.add(s67, f64x2.mul(f64x2(load<f64>(c + 6 * stride), load<f64>(c + 7 * stride)), xj));
    }
    const o = out + (<usize>i << 3);
    v128.store(o, s01);
    v128.store(o, s23, 16);
    v128.store(o, s45, 32);
    v128.store(o, s67, 48);
  }
  for (; i < rows; i++) {
    const row = a + <usize>i * stride;
    let s: f64 = 0;
    for (let j = 0; j < cols; j++) s += load<f64>(row + (<usize>j << 3)) * load<f64>(x + (<usize>j << 3));
    store<f64>(out + (<usize>i << 3), s);
  }
}
