/**
 * out += alpha·Xᵀ·diag(w)·X for a row-major n×d X (w omitted means all ones), both triangles
 * written so `out` stays exactly symmetric. Used for XᵀX and the 2·Xᵀ·Λ(ξ)·X of Drugowitsch eq. (46).
 * The upper triangle is accumulated eight rows at a time (one load and store of `out` per eight
 * multiply-adds), adding the rows' terms in row order, so the sums are bit for bit those of one
 * rank-1 update per row.
 */
export function gramAccumulate(x: Float64Array, n: number, d: number, out: Float64Array, alpha = 1, w?: Float64Array): void {
  let r = 0;
  for (; r + 7 < n; r += 8) {
    const c0 = w === undefined ? alpha : alpha * w[r];
    const c1 = w === undefined ? alpha : alpha * w[r + 1];
    const c2 = w === undefined ? alpha : alpha * w[r + 2];
    const c3 = w === undefined ? alpha : alpha * w[r + 3];
    const c4 = w === undefined ? alpha : alpha * w[r + 4];
    const c5 = w === undefined ? alpha : alpha * w[r + 5];
    const c6 = w === undefined ? alpha : alpha * w[r + 6];
    const c7 = w === undefined ? alpha : alpha * w[r + 7];
    const b0 = r * d;
    const b1 = b0 + d;
    const b2 = b1 + d;
    const b3 = b2 + d;
    const b4 = b3 + d;
    const b5 = b4 + d;
    const b6 = b5 + d;
    const b7 = b6 + d;
    for (let i = 0; i < d; i++) {
      const s0 = c0 * x[b0 + i];
      const s1 = c1 * x[b1 + i];
      const s2 = c2 * x[b2 + i];
      const s3 = c3 * x[b3 + i];
      const s4 = c4 * x[b4 + i];
      const s5 = c5 * x[b5 + i];
      const s6 = c6 * x[b6 + i];
      const s7 = c7 * x[b7 + i];
      const row = i * d;
      for (let j = i; j < d; j++) {
        out[row + j] = out[row + j] + s0 * x[b0 + j] + s1 * x[b1 + j] + s2 * x[b2 + j] + s3 * x[b3 + j]
          + s4 * x[b4 + j] + s5 * x[b5 + j] + s6 * x[b6 + j] + s7 * x[b7 + j];
      }
    }
  }
  for (; r < n; r++) {
    const scale = w === undefined ? alpha : alpha * w[r];
    const base = r * d;
    for (let i = 0; i < d; i++) {
      const s = scale * x[base + i];
      const row = i * d;
      for (let j = i; j < d; j++) out[row + j] += s * x[base + j];
    }
  }
  for (let i = 0; i < d; i++) for (let j = i + 1; j < d; j++) out[j * d + i] = out[i * d + j];
}
