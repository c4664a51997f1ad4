/** Rows per cache tile: a tile of x stays in L2 while each row of `out` is updated from all of it. */
const TILE_ROWS = 64;

/**
 * out += Xᵀ·diag(w)·X on the upper triangle only (j ≥ i; the lower triangle is not touched) for a
 * row-major n×d X (w omitted means all ones). Rows are taken four at a time so each entry of `out`
 * is loaded and stored once per four rows, and in tiles of 64 so a row of `out` stays in cache
 * across the tile; every entry still receives its rows' terms one by one in row order, so any split
 * of a stream into batches gives bit-identical sums. No allocation.
 */
export function gramAccumulateUpper(x: Float64Array, n: number, d: number, out: Float64Array, w?: Float64Array): void {
  for (let t0 = 0; t0 < n; t0 += TILE_ROWS) {
    const t1 = Math.min(n, t0 + TILE_ROWS);
    for (let i = 0; i < d; i++) {
      const row = i * d;
      let r = t0;
      for (; r + 4 <= t1; r += 4) {
        const b0 = r * d;
        const b1 = b0 + d;
        const b2 = b1 + d;
        const b3 = b2 + d;
        const s0 = w === undefined ? x[b0 + i] : w[r] * x[b0 + i];
        const s1 = w === undefined ? x[b1 + i] : w[r + 1] * x[b1 + i];
        const s2 = w === undefined ? x[b2 + i] : w[r + 2] * x[b2 + i];
        const s3 = w === undefined ? x[b3 + i] : w[r + 3] * x[b3 + i];
        for (let j = i; j < d; j++) {
          let o = out[row + j];
          o += s0 * x[b0 + j];
          o += s1 * x[b1 + j];
          o += s2 * x[b2 + j];
          o += s3 * x[b3 + j];
          out[row + j] = o;
        }
      }
      for (; r < t1; r++) {
        const base = r * d;
        const s = w === undefined ? x[base + i] : w[r] * x[base + i];
        for (let j = i; j < d; j++) out[row + j] += s * x[base + j];
      }
    }
  }
}
