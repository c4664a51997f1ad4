// AssemblyScript: the O(n²) kernels of a symmetric matrix kept on its upper triangle (the symmetric product and
// the Sherman–Morrison pair of a per-record Bayesian update) as WebAssembly with 128-bit SIMD (f64x2). Pointers are
// byte offsets into the module's memory, matrices row-major Float64. Each keeps the operation order of the
// JavaScript loop it replaces (no fused multiply-add), so results are bit for bit those of that loop.

/**
 * out = A·x for a symmetric n×n A read on its upper triangle (BLAS dsymv), in the order of the loop
 * `for i: s = a_ii·x_i; for j > i: { s += a_ij·x_j; out_j += a_ij·x_i }; out_i += s` (out from 0). Rows go four at
 * a time: the block's own triangle one entry at a time, then the columns right of it two per vector — each
 * out_j taking the four rows' terms in row order, the four sums s (two per vector) their terms in column order.
 */
export function symmetricGemvUpper(a: usize, n: i32, x: usize, out: usize): void {
  const rowBytes = <usize>n << 3;
  memory.fill(out, 0, rowBytes);
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const r0 = a + <usize>i * rowBytes;
    const r1 = r0 + rowBytes;
    const r2 = r1 + rowBytes;
    const r3 = r2 + rowBytes;
    const at = <usize>i << 3;
    const x0 = load<f64>(x + at);
    const x1 = load<f64>(x + at, 8);
    const x2 = load<f64>(x + at, 16);
    const x3 = load<f64>(x + at, 24);
    let s0 = load<f64>(r0 + at) * x0;
    let v = load<f64>(r0 + at, 8);
    s0 += v * x1;
    store<f64>(out + at, load<f64>(out + at, 8) + v * x0, 8);
    v = load<f64>(r0 + at, 16);
    s0 += v * x2;
    store<f64>(out + at, load<f64>(out + at, 16) + v * x0, 16);
    v = load<f64>(r0 + at, 24);
    s0 += v * x3;
    store<f64>(out + at, load<f64>(out + at, 24) + v * x0, 24);
    let s1 = load<f64>(r1 + at, 8) * x1;
    v = load<f64>(r1 + at, 16);
    s1 += v * x2;
    store<f64>(out + at, load<f64>(out + at, 16) + v * x1, 16);
    v = load<f64>(r1 + at, 24);
    s1 += v * x3;
    store<f64>(out + at, load<f64>(out + at, 24) + v * x1, 24);
    let s2 = load<f64>(r2 + at, 16) * x2;
    v = load<f64>(r2 + at, 24);
    s2 += v * x3;
    store<f64>(out + at, load<f64>(out + at, 24) + v * x2, 24);
    const s3 = load<f64>(r3 + at, 24) * x3;
    let s01 = f64x2(s0, s1);
    let s23 = f64x2(s2, s3);
    const v0 = f64x2.splat(x0);
    const v1 = f64x2.splat(x1);
    const v2 = f64x2.splat(x2);
    const v3 = f64x2.splat(x3);
    let j = i + 4;
    for (; j + 1 < n; j += 2) {
      const c = <usize>j << 3;
      const a0 = v128.load(r0 + c);
      const a1 = v128.load(r1 + c);
      const a2 = v128.load(r2 + c);
      const a3 = v128.load(r3 + c);
      let o = v128.load(out + c);
      o = f64x2.add(o, f64x2.mul(a0, v0));
      o = f64x2.add(o, f64x2.mul(a1, v1));
      o = f64x2.add(o, f64x2.mul(a2, v2));
      o = f64x2.add(o, f64x2.mul(a3, v3));
      v128.store(out + c, o);
      const xs = v128.load(x + c);
      const p0 = f64x2.mul(a0, xs);
      const p1 = f64x2.mul(a1, xs);
      const p2 = f64x2.mul(a2, xs);
      const p3 = f64x2.mul(a3, xs);
      s01 = f64x2.add(s01, v128.shuffle<f64>(p0, p1, 0, 2));
      s01 = f64x2.add(s01, v128.shuffle<f64>(p0, p1, 1, 3));
      s23 = f64x2.add(s23, v128.shuffle<f64>(p2, p3, 0, 2));
      s23 = f64x2.add(s23, v128.shuffle<f64>(p2, p3, 1, 3));
    }
    if (j < n) {
      const c = <usize>j << 3;
      const xj = load<f64>(x + c);
      const a0 = load<f64>(r0 + c);
      const a1 = load<f64>(r1 + c);
      const a2 = load<f64>(r2 + c);
      const a3 = load<f64>(r3 + c);
      let o = load<f64>(out + c);
      o += a0 * x0;
      o += a1 * x1;
      o += a2 * x2;
      o += a3 * x3;
      store<f64>(out + c, o);
      s01 = f64x2.add(s01, f64x2(a0 * xj, a1 * xj));
      s23 = f64x2.add(s23, f64x2(a2 * xj, a3 * xj));
    }
    store<f64>(out + at, load<f64>(out + at) + f64x2.extract_lane(s01, 0));
    store<f64>(out + at, load<f64>(out + at, 8) + f64x2.extract_lane(s01, 1), 8);
    store<f64>(out + at, load<f64>(out + at, 16) + f64x2.extract_lane(s23, 0), 16);
    store<f64>(out + at, load<f64>(out + at, 24) + f64x2.extract_lane(s23, 1), 24);
  }
  for (; i < n; i++) {
    const row = a + <usize>i * rowBytes;
    const xi = load<f64>(x + (<usize>i << 3));
    let s = load<f64>(row + (<usize>i << 3)) * xi;
    for (let j = i + 1; j < n; j++) {
      const c = <usize>j << 3;
      const value = load<f64>(row + c);
      s += value * load<f64>(x + c);
      store<f64>(out + c, load<f64>(out + c) + value * xi);
    }
    store<f64>(out + (<usize>i << 3), load<f64>(out + (<usize>i << 3)) + s);
  }
}

/**
 * One weighted record x (weight alpha) into a statistic A and the inverse B of A plus a fixed diagonal, both kept
 * on their upper triangles (j ≥ i): u = B·x ({@link symmetricGemvUpper}; given in `u` when `haveU`), q = Σ_i x_i·u_i
 * in order, then A_ij += (alpha·x_i)·x_j and B_ij += β·(u_i·u_j) with β = −alpha/(1 + alpha·q) (Sherman–Morrison),
 * two columns per vector. Returns q.
 */
export function shermanMorrisonPairUpper(a: usize, alpha: f64, x: usize, b: usize, u: usize, n: i32, haveU: bool): f64 {
  if (!haveU) symmetricGemvUpper(b, n, x, u);
  let q: f64 = 0;
  for (let i = 0; i < n; i++) q += load<f64>(x + (<usize>i << 3)) * load<f64>(u + (<usize>i << 3));
  const beta = -alpha / (1 + alpha * q);
  const rowBytes = <usize>n << 3;
  const vb = f64x2.splat(beta);
  for (let i = 0; i < n; i++) {
    const ra = a + <usize>i * rowBytes;
    const rb = b + <usize>i * rowBytes;
    const ax = alpha * load<f64>(x + (<usize>i << 3));
    const ui = load<f64>(u + (<usize>i << 3));
    const vax = f64x2.splat(ax);
    const vui = f64x2.splat(ui);
    let j = i;
    for (; j + 1 < n; j += 2) {
      const c = <usize>j << 3;
      v128.store(ra + c, f64x2.add(v128.load(ra + c), f64x2.mul(vax, v128.load(x + c))));
      v128.store(rb + c, f64x2.add(v128.load(rb + c), f64x2.mul(vb, f64x2.mul(vui, v128.load(u + c)))));
    }
    if (j < n) {
      const c = <usize>j << 3;
      store<f64>(ra + c, load<f64>(ra + c) + ax * load<f64>(x + c));
      store<f64>(rb + c, load<f64>(rb + c) + beta * (ui * load<f64>(u + c)));
    }
  }
  return q;
}
