// AssemblyScript: the triangular kernels of src/linalg (Cholesky, triangular solves and products, the inverse from a
// factor) and the register-tiled A·S product they are built on, as WebAssembly with 128-bit SIMD (f64x2). Pointers
// are byte offsets into the module's memory, matrices row-major Float64. Each kernel keeps the operation order of
// the JavaScript formula it replaces (every output's terms one by one in the same order, two independent outputs
// per vector, no fused multiply-add), so results are bit for bit those of that formula.

import { accumulateTile } from './register-tile';

/**
 * out[i·ldo + j] += Σ_{q<k} a[i·lda + q]·src[q·lds + j] for i < m, j < n (strides in doubles). Tiles of 4 rows ×
 * 4 columns (eight vector sums; each loaded pair of `src` used four times, each value of `a` twice); every entry
 * starts from its value in `out` and adds its k terms in order q = 0, 1, …. `out` must not overlap what is read.
 */
export function gemmNnAccumulate(out: usize, ldo: i32, a: usize, lda: i32, src: usize, lds: i32, m: i32, k: i32, n: i32): void {
  const outRow = <usize>ldo << 3;
  const aRow = <usize>lda << 3;
  const srcRow = <usize>lds << 3;
  let i = 0;
  for (; i + 3 < m; i += 4) {
    const a0 = a + <usize>i * aRow;
    const a1 = a0 + aRow;
    const a2 = a1 + aRow;
    const a3 = a2 + aRow;
    const o0 = out + <usize>i * outRow;
    const o1 = o0 + outRow;
    const o2 = o1 + outRow;
    const o3 = o2 + outRow;
    let j = 0;
    for (; j + 3 < n; j += 4) {
      const at = <usize>j << 3;
      accumulateTile(o0 + at, outRow, a0, aRow, 8, src + at, srcRow, k, false);
    }
    for (; j < n; j++) {
      const at = <usize>j << 3;
      let c0 = load<f64>(o0 + at);
      let c1 = load<f64>(o1 + at);
      let c2 = load<f64>(o2 + at);
      let c3 = load<f64>(o3 + at);
      let s = src + at;
      for (let q = 0; q < k; q++) {
        const qa = <usize>q << 3;
        const b = load<f64>(s);
        c0 += load<f64>(a0 + qa) * b;
        c1 += load<f64>(a1 + qa) * b;
        c2 += load<f64>(a2 + qa) * b;
        c3 += load<f64>(a3 + qa) * b;
        s += srcRow;
      }
      store<f64>(o0 + at, c0);
      store<f64>(o1 + at, c1);
      store<f64>(o2 + at, c2);
      store<f64>(o3 + at, c3);
    }
  }
  for (; i < m; i++) {
    const ai = a + <usize>i * aRow;
    const oi = out + <usize>i * outRow;
    let j = 0;
    for (; j + 3 < n; j += 4) {
      const at = <usize>j << 3;
      let ca = v128.load(oi + at);
      let cb = v128.load(oi + at, 16);
      let s = src + at;
      for (let q = 0; q < k; q++) {
        const x = f64x2.splat(load<f64>(ai + (<usize>q << 3)));
        ca = f64x2.add(ca, f64x2.mul(x, v128.load(s)));
        cb = f64x2.add(cb, f64x2.mul(x, v128.load(s, 16)));
        s += srcRow;
      }
      v128.store(oi + at, ca);
      v128.store(oi + at, cb, 16);
    }
    for (; j < n; j++) {
      const at = <usize>j << 3;
      let c = load<f64>(oi + at);
      let s = src + at;
      for (let q = 0; q < k; q++) {
        c += load<f64>(ai + (<usize>q << 3)) * load<f64>(s);
        s += srcRow;
      }
      store<f64>(oi + at, c);
    }
  }
}

/** The 4 f64 at `acc` += x·(the 4 at b), two per vector. */
// @ts-ignore: decorator
@inline
function accumulateRow(acc: usize, x: f64, b: usize): void {
  const v = f64x2.splat(x);
  v128.store(acc, f64x2.add(v128.load(acc), f64x2.mul(v, v128.load(b))));
  v128.store(acc, f64x2.add(v128.load(acc, 16), f64x2.mul(v, v128.load(b, 16))), 16);
}

/** row[c] −= f·source[c] for c < count, two c per vector. */
// @ts-ignore: decorator
@inline
function subtractScaledRow(row: usize, source: usize, f: f64, count: i32): void {
  const v = f64x2.splat(f);
  let c = 0;
  for (; c + 1 < count; c += 2) {
    const at = <usize>c << 3;
    v128.store(row + at, f64x2.sub(v128.load(row + at), f64x2.mul(v, v128.load(source + at))));
  }
  if (c < count) {
    const at = <usize>c << 3;
    store<f64>(row + at, load<f64>(row + at) - f * load<f64>(source + at));
  }
}

/** row[c] ·= f for c < count. */
// @ts-ignore: decorator
@inline
function scaleRow(row: usize, f: f64, count: i32): void {
  const v = f64x2.splat(f);
  let c = 0;
  for (; c + 1 < count; c += 2) {
    const at = <usize>c << 3;
    v128.store(row + at, f64x2.mul(v128.load(row + at), v));
  }
  if (c < count) store<f64>(row + (<usize>c << 3), load<f64>(row + (<usize>c << 3)) * f);
}

/**
 * Solves L·X = B in place (L lower-triangular n×n, B n×cols): blocks of four rows, the block −= L[block, before]·
 * X[before] by {@link gemmNnAccumulate} with −L in `negated` (n×n scratch), then the block's own triangle along its
 * rows. `lowerOnly` (square lower-triangular B): a block of rows i < end takes only the columns j < end.
 */
export function solveLowerRows(l: usize, n: i32, b: usize, cols: i32, negated: usize, lowerOnly: bool): void {
  const nn = n * n;
  for (let e = 0; e < nn; e++) store<f64>(negated + (<usize>e << 3), -load<f64>(l + (<usize>e << 3)));
  const lRow = <usize>n << 3;
  const bRow = <usize>cols << 3;
  let a0 = 0;
  for (; a0 + 3 < n; a0 += 4) {
    const last = lowerOnly ? min(cols, a0 + 4) : cols;
    gemmNnAccumulate(b + <usize>a0 * bRow, cols, negated + <usize>a0 * lRow, n, b, cols, 4, a0, last);
    const r0 = l + <usize>a0 * lRow;
    const r1 = r0 + lRow;
    const r2 = r1 + lRow;
    const r3 = r2 + lRow;
    const at = <usize>a0 << 3;
    const l10 = load<f64>(r1 + at);
    const l20 = load<f64>(r2 + at);
    const l21 = load<f64>(r2 + at, 8);
    const l30 = load<f64>(r3 + at);
    const l31 = load<f64>(r3 + at, 8);
    const l32 = load<f64>(r3 + at, 16);
    const i0 = 1 / load<f64>(r0 + at);
    const i1 = 1 / load<f64>(r1 + at, 8);
    const i2 = 1 / load<f64>(r2 + at, 16);
    const i3 = 1 / load<f64>(r3 + at, 24);
    const o0 = b + <usize>a0 * bRow;
    const o1 = o0 + bRow;
    const o2 = o1 + bRow;
    const o3 = o2 + bRow;
    const v10 = f64x2.splat(l10);
    const v20 = f64x2.splat(l20);
    const v21 = f64x2.splat(l21);
    const v30 = f64x2.splat(l30);
    const v31 = f64x2.splat(l31);
    const v32 = f64x2.splat(l32);
    const w0 = f64x2.splat(i0);
    const w1 = f64x2.splat(i1);
    const w2 = f64x2.splat(i2);
    const w3 = f64x2.splat(i3);
    let c = 0;
    for (; c + 1 < last; c += 2) {
      const ca = <usize>c << 3;
      const x0 = f64x2.mul(v128.load(o0 + ca), w0);
      const x1 = f64x2.mul(f64x2.sub(v128.load(o1 + ca), f64x2.mul(v10, x0)), w1);
      const x2 = f64x2.mul(f64x2.sub(f64x2.sub(v128.load(o2 + ca), f64x2.mul(v20, x0)), f64x2.mul(v21, x1)), w2);
      const x3 = f64x2.mul(f64x2.sub(f64x2.sub(f64x2.sub(v128.load(o3 + ca), f64x2.mul(v30, x0)), f64x2.mul(v31, x1)), f64x2.mul(v32, x2)), w3);
      v128.store(o0 + ca, x0);
      v128.store(o1 + ca, x1);
      v128.store(o2 + ca, x2);
      v128.store(o3 + ca, x3);
    }
    if (c < last) {
      const ca = <usize>c << 3;
      const x0 = load<f64>(o0 + ca) * i0;
      const x1 = (load<f64>(o1 + ca) - l10 * x0) * i1;
      const x2 = (load<f64>(o2 + ca) - l20 * x0 - l21 * x1) * i2;
      const x3 = (load<f64>(o3 + ca) - l30 * x0 - l31 * x1 - l32 * x2) * i3;
      store<f64>(o0 + ca, x0);
      store<f64>(o1 + ca, x1);
      store<f64>(o2 + ca, x2);
      store<f64>(o3 + ca, x3);
    }
  }
  if (a0 == n) return;
  gemmNnAccumulate(b + <usize>a0 * bRow, cols, negated + <usize>a0 * lRow, n, b, cols, n - a0, a0, cols);
  for (let i = a0; i < n; i++) {
    const row = b + <usize>i * bRow;
    const li = l + <usize>i * lRow;
    for (let k = a0; k < i; k++) subtractScaledRow(row, b + <usize>k * bRow, load<f64>(li + (<usize>k << 3)), cols);
    scaleRow(row, 1 / load<f64>(li + (<usize>i << 3)), cols);
  }
}

/**
 * Solves Lᵀ·X = B in place (L lower-triangular n×n, B n×cols): blocks of four rows from the bottom, the block −=
 * Lᵀ[block, after]·X[after] by {@link gemmNnAccumulate} with −Lᵀ in `negatedTranspose` (n×n scratch), then each
 * row of the block −= L[k, i]·row k for the later rows k of its block and × 1/L[i, i]. `part` (square B): 1 the
 * lower triangle of X (a block of rows i < end takes the columns j < end), 2 the upper one of an upper-triangular
 * B (a block from row a0 takes the columns j ≥ a0).
 */
export function solveLowerTransposedTiled(l: usize, n: i32, b: usize, cols: i32, negatedTranspose: usize, part: i32): void {
  const lRow = <usize>n << 3;
  const bRow = <usize>cols << 3;
  for (let i = 0; i < n; i++) {
    const to = negatedTranspose + <usize>i * lRow;
    const from = l + (<usize>i << 3);
    for (let k = 0; k < n; k++) store<f64>(to + (<usize>k << 3), -load<f64>(from + <usize>k * lRow));
  }
  for (let a0 = n - 1 - ((n - 1) % 4); a0 >= 0; a0 -= 4) {
    const end = min(n, a0 + 4);
    const first = part == 2 ? a0 : 0;
    const last = part == 1 ? end : cols;
    const firstAt = <usize>first << 3;
    gemmNnAccumulate(b + <usize>a0 * bRow + firstAt, cols, negatedTranspose + <usize>a0 * lRow + (<usize>end << 3), n,
      b + <usize>end * bRow + firstAt, cols, end - a0, n - end, last - first);
    for (let i = end - 1; i >= a0; i--) {
      const row = b + <usize>i * bRow + firstAt;
      const column = l + (<usize>i << 3);
      for (let k = i + 1; k < end; k++) subtractScaledRow(row, b + <usize>k * bRow + firstAt, load<f64>(column + <usize>k * lRow), last - first);
      scaleRow(row, 1 / load<f64>(column + <usize>i * lRow), last - first);
    }
  }
}

/**
 * out = Lᵀ·src (L lower-triangular M×M, src M×n): Lᵀ into `transposed` (M×M scratch, zeros below its diagonal),
 * out zeroed, then blocks of four rows of out += Lᵀ[block, b ≥ a0]·src[b ≥ a0] by {@link gemmNnAccumulate}.
 * `lowerOnly` (n = M): a block of rows a < end takes only the columns j < end.
 */
export function lowerTransposedTimesTiled(out: usize, src: usize, l: usize, m: i32, n: i32, transposed: usize, lowerOnly: bool): void {
  const lRow = <usize>m << 3;
  const row = <usize>n << 3;
  for (let a = 0; a < m; a++) {
    const to = transposed + <usize>a * lRow;
    const from = l + (<usize>a << 3);
    for (let b = 0; b < a; b++) store<f64>(to + (<usize>b << 3), 0);
    for (let b = a; b < m; b++) store<f64>(to + (<usize>b << 3), load<f64>(from + <usize>b * lRow));
  }
  memory.fill(out, 0, <usize>m * row);
  for (let a0 = 0; a0 < m; a0 += 4) {
    const rows = min(4, m - a0);
    gemmNnAccumulate(out + <usize>a0 * row, n, transposed + <usize>a0 * lRow + (<usize>a0 << 3), m, src + <usize>a0 * row, n, rows, m - a0,
      lowerOnly ? min(n, a0 + rows) : n);
  }
}

/**
 * Lower Cholesky factor of a (n×n, its lower triangle read) + jitter·I into l (upper triangle zeroed), worked out
 * in its transpose U = Lᵀ in `lt` (scratch of {@link paddedOrder}(n)² doubles, rows that long), where column j of
 * L is the contiguous row j of U. Column blocks of four (Cholesky–Crout, left-looking): the block's rows of U,
 * from its diagonal to the right, take the terms of the earlier blocks in 4×4 register tiles, then its own
 * columns one by one, two rows of L per vector, and are divided by the pivot. Every entry a_ij (+ jitter) −
 * Σ_{k<j} l_ik·l_jk keeps its terms in order k = 0, 1, … and is then divided by l_jj (or square-rooted), as in
 * the one-row loop (Cholesky–Banachiewicz), so L is bit for bit that loop's; below order 8 that loop itself runs.
 * Returns false (l not written, or in part) when a pivot is not positive and finite.
 */
export function choleskyFactor(a: usize, n: i32, l: usize, lt: usize, jitter: f64): bool {
  if (n < SMALL_ORDER) return choleskyRows(a, n, l, jitter);
  const np = paddedOrder(n);
  const rowBytes = <usize>np << 3;
  const aRow = <usize>n << 3;
  for (let j = 0; j < np; j++) {
    const row = lt + <usize>j * rowBytes;
    const from = j & ~3;
    memory.fill(row + (<usize>from << 3), 0, <usize>(np - from) << 3);
    if (j >= n) continue;
    const column = a + (<usize>j << 3);
    for (let i = j; i < n; i++) store<f64>(row + (<usize>i << 3), load<f64>(column + <usize>i * aRow));
    store<f64>(row + (<usize>j << 3), load<f64>(row + (<usize>j << 3)) + jitter);
  }
  for (let j0 = 0; j0 < n; j0 += 4) {
    const block = lt + <usize>j0 * rowBytes;
    if (j0 > 0) {
      for (let i = j0; i < np; i += 4) accumulateTile(block + (<usize>i << 3), rowBytes, lt + (<usize>j0 << 3), 8, rowBytes, lt + (<usize>i << 3), rowBytes, j0, true);
    }
    const end = min(n, j0 + 4);
    for (let j = j0; j < end; j++) {
      const row = lt + <usize>j * rowBytes;
      const at = <usize>j << 3;
      let pivot = load<f64>(row + at);
      for (let k = j0; k < j; k++) {
        const u = load<f64>(lt + <usize>k * rowBytes + at);
        pivot -= u * u;
      }
      if (!(pivot > 0 && pivot < Infinity)) return false;
      const diagonal = Math.sqrt(pivot);
      store<f64>(row + at, diagonal);
      subtractEarlierColumns(lt, rowBytes, j0, j, n, diagonal);
    }
  }
  for (let i = 0; i < n; i++) {
    const rowI = l + <usize>i * aRow;
    const column = lt + (<usize>i << 3);
    for (let j = 0; j <= i; j++) store<f64>(rowI + (<usize>j << 3), load<f64>(column + <usize>j * rowBytes));
    memory.fill(rowI + (<usize>(i + 1) << 3), 0, <usize>(n - i - 1) << 3);
  }
  return true;
}

/** Below this order {@link choleskyFactor} runs the one-row loop itself (the blocks' set-up costs more than they save). */
const SMALL_ORDER = 8;

/** The one-row loop (Cholesky–Banachiewicz) on a + jitter·I into l, for the small orders; false when a pivot is not positive and finite. */
function choleskyRows(a: usize, n: i32, l: usize, jitter: f64): bool {
  const rowBytes = <usize>n << 3;
  for (let i = 0; i < n; i++) {
    const rowI = l + <usize>i * rowBytes;
    for (let j = 0; j <= i; j++) {
      const rowJ = l + <usize>j * rowBytes;
      let sum = load<f64>(a + <usize>i * rowBytes + (<usize>j << 3));
      if (i == j) sum += jitter;
      for (let k = 0; k < j; k++) sum -= load<f64>(rowI + (<usize>k << 3)) * load<f64>(rowJ + (<usize>k << 3));
      if (i == j) {
        if (!(sum > 0 && sum < Infinity)) return false;
        store<f64>(rowI + (<usize>i << 3), Math.sqrt(sum));
      } else {
        store<f64>(rowI + (<usize>j << 3), sum / load<f64>(rowJ + (<usize>j << 3)));
      }
    }
    memory.fill(rowI + (<usize>(i + 1) << 3), 0, <usize>(n - i - 1) << 3);
  }
  return true;
}

/** The order rounded up to a multiple of 4: {@link choleskyFactor}'s scratch is that many rows of that many doubles. */
export function paddedOrder(n: i32): i32 {
  return (n + 3) & ~3;
}

/**
 * Row j of U (entries i = j+1 … n−1, two per vector) −= U[k][j]·(row k) for the earlier columns k = j0 … j−1 of
 * its block, in order of k, then ÷ the pivot `diagonal` (a division, as the one-row loop's).
 */
// @ts-ignore: decorator
@inline
function subtractEarlierColumns(lt: usize, rowBytes: usize, j0: i32, j: i32, n: i32, diagonal: f64): void {
  const row = lt + <usize>j * rowBytes;
  const at = <usize>j << 3;
  const count = j - j0;
  const r0 = lt + <usize>j0 * rowBytes;
  const r1 = r0 + rowBytes;
  const r2 = r1 + rowBytes;
  const f0 = count > 0 ? load<f64>(r0 + at) : 0;
  const f1 = count > 1 ? load<f64>(r1 + at) : 0;
  const f2 = count > 2 ? load<f64>(r2 + at) : 0;
  const v0 = f64x2.splat(f0);
  const v1 = f64x2.splat(f1);
  const v2 = f64x2.splat(f2);
  const p = f64x2.splat(diagonal);
  let i = j + 1;
  if (count == 0) {
    for (; i + 1 < n; i += 2) {
      const ia = <usize>i << 3;
      v128.store(row + ia, f64x2.div(v128.load(row + ia), p));
    }
  } else if (count == 1) {
    for (; i + 1 < n; i += 2) {
      const ia = <usize>i << 3;
      v128.store(row + ia, f64x2.div(f64x2.sub(v128.load(row + ia), f64x2.mul(v0, v128.load(r0 + ia))), p));
    }
  } else if (count == 2) {
    for (; i + 1 < n; i += 2) {
      const ia = <usize>i << 3;
      const s = f64x2.sub(v128.load(row + ia), f64x2.mul(v0, v128.load(r0 + ia)));
      v128.store(row + ia, f64x2.div(f64x2.sub(s, f64x2.mul(v1, v128.load(r1 + ia))), p));
    }
  } else {
    for (; i + 1 < n; i += 2) {
      const ia = <usize>i << 3;
      const s = f64x2.sub(f64x2.sub(v128.load(row + ia), f64x2.mul(v0, v128.load(r0 + ia))), f64x2.mul(v1, v128.load(r1 + ia)));
      v128.store(row + ia, f64x2.div(f64x2.sub(s, f64x2.mul(v2, v128.load(r2 + ia))), p));
    }
  }
  if (i < n) {
    const ia = <usize>i << 3;
    let s = load<f64>(row + ia);
    if (count > 0) s -= f0 * load<f64>(r0 + ia);
    if (count > 1) s -= f1 * load<f64>(r1 + ia);
    if (count > 2) s -= f2 * load<f64>(r2 + ia);
    store<f64>(row + ia, s / diagonal);
  }
}

/**
 * A⁻¹ = (L⁻¹)ᵀL⁻¹ from A's lower Cholesky factor l into `out` (full, symmetric), with L⁻¹ in `inv` (n×n scratch).
 * L⁻¹ by forward substitution, entry (i, j) = (−Σ_{j ≤ k < i} l_ik·L⁻¹_kj, k ascending) / l_ii: rows four at a
 * time, each 4×4 tile left of the block's diagonal first takes the terms of the earlier blocks' rows k in a
 * register tile (from k = the tile's first column: the terms before an entry's own k = j are l_ik·0, which leave
 * its sum at +0), then the block's rows take their own block's terms one row k at a time, two j per vector (the
 * last n mod 4 rows take all their terms that way); then entry (i, j ≤ i) = Σ_{k ≥ i} L⁻¹_ki·L⁻¹_kj, k
 * ascending from 0, in 4×4 register tiles over rows k of L⁻¹ (row i of a tile joins at k = i), mirrored to the
 * upper triangle.
 */
export function choleskyInverse(l: usize, n: i32, out: usize, inv: usize): void {
  const rowBytes = <usize>n << 3;
  memory.fill(inv, 0, <usize>n * rowBytes);
  const blocked = n & ~3;
  for (let i = 0; i < n; i++) {
    const row = inv + <usize>i * rowBytes;
    const li = l + <usize>i * rowBytes;
    const i0 = i & ~3;
    let k = 0;
    if (i < blocked) {
      if (i == i0) {
        for (let j0 = 0; j0 < i0; j0 += 4) {
          const at = <usize>j0 << 3;
          accumulateTile(row + at, rowBytes, li + at, rowBytes, 8, inv + <usize>j0 * rowBytes + at, rowBytes, i0 - j0, true);
        }
      }
      k = i0;
    }
    for (; k + 3 < i; k += 4) {
      const f0 = load<f64>(li + (<usize>k << 3));
      const f1 = load<f64>(li + (<usize>k << 3), 8);
      const f2 = load<f64>(li + (<usize>k << 3), 16);
      const f3 = load<f64>(li + (<usize>k << 3), 24);
      const a0 = inv + <usize>k * rowBytes;
      const a1 = a0 + rowBytes;
      const a2 = a1 + rowBytes;
      const a3 = a2 + rowBytes;
      const v0 = f64x2.splat(f0);
      const v1 = f64x2.splat(f1);
      const v2 = f64x2.splat(f2);
      const v3 = f64x2.splat(f3);
      let j = 0;
      for (; j + 1 <= k; j += 2) {
        const at = <usize>j << 3;
        let s = f64x2.sub(v128.load(row + at), f64x2.mul(v0, v128.load(a0 + at)));
        s = f64x2.sub(s, f64x2.mul(v1, v128.load(a1 + at)));
        s = f64x2.sub(s, f64x2.mul(v2, v128.load(a2 + at)));
        v128.store(row + at, f64x2.sub(s, f64x2.mul(v3, v128.load(a3 + at))));
      }
      if (j <= k) {
        const at = <usize>j << 3;
        store<f64>(row + at, load<f64>(row + at) - f0 * load<f64>(a0 + at) - f1 * load<f64>(a1 + at) - f2 * load<f64>(a2 + at) - f3 * load<f64>(a3 + at));
      }
      const k1 = <usize>(k + 1) << 3;
      store<f64>(row + k1, load<f64>(row + k1) - f1 * load<f64>(a1 + k1) - f2 * load<f64>(a2 + k1) - f3 * load<f64>(a3 + k1));
      const k2 = k1 + 8;
      store<f64>(row + k2, load<f64>(row + k2) - f2 * load<f64>(a2 + k2) - f3 * load<f64>(a3 + k2));
      const k3 = k2 + 8;
      store<f64>(row + k3, load<f64>(row + k3) - f3 * load<f64>(a3 + k3));
    }
    for (; k < i; k++) subtractScaledRow(row, inv + <usize>k * rowBytes, load<f64>(li + (<usize>k << 3)), k + 1);
    const diagonal = load<f64>(li + (<usize>i << 3));
    const d = f64x2.splat(diagonal);
    let j = 0;
    for (; j + 2 <= i; j += 2) v128.store(row + (<usize>j << 3), f64x2.div(v128.load(row + (<usize>j << 3)), d));
    if (j < i) store<f64>(row + (<usize>j << 3), load<f64>(row + (<usize>j << 3)) / diagonal);
    store<f64>(row + (<usize>i << 3), 1 / diagonal);
  }
  let i0 = 0;
  for (; i0 + 3 < n; i0 += 4) {
    const t0 = inv + (<usize>i0 << 3);
    for (let j0 = 0; j0 <= i0; j0 += 4) {
      const jAt = <usize>j0 << 3;
      const o = out + <usize>i0 * rowBytes + jAt;
      for (let r: usize = 0; r < 4; r++) memory.fill(o + r * rowBytes, 0, 32);
      for (let k = i0; k < i0 + 3; k++) {
        const at = inv + <usize>k * rowBytes;
        for (let r = i0; r <= k; r++) accumulateRow(o + <usize>(r - i0) * rowBytes, load<f64>(at + (<usize>r << 3)), at + jAt);
      }
      accumulateTile(o, rowBytes, t0 + <usize>(i0 + 3) * rowBytes, 8, rowBytes, inv + <usize>(i0 + 3) * rowBytes + jAt, rowBytes, n - i0 - 3, false);
    }
  }
  for (let i = i0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum: f64 = 0;
      for (let k = i; k < n; k++) {
        const at = inv + <usize>k * rowBytes;
        sum += load<f64>(at + (<usize>i << 3)) * load<f64>(at + (<usize>j << 3));
      }
      store<f64>(out + <usize>i * rowBytes + (<usize>j << 3), sum);
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) store<f64>(out + <usize>j * rowBytes + (<usize>i << 3), load<f64>(out + <usize>i * rowBytes + (<usize>j << 3)));
  }
}
