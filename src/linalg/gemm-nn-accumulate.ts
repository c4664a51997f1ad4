/**
 * out[o + i·ld + j] += Σ_{q<k} a[ao + i·lda + q]·src[s + q·ld + j] for i < m, j < n: a row-major m×k block of
 * A (row stride lda) times an n-column block of k rows of a row-major matrix (row stride ld, n by default),
 * added to an n-column block of m rows of `out` (row stride ld).
 * Register-tiled 4×8 (each loaded value of A used eight times, of the matrix four; 32 running sums), then 4×4
 * for the last columns; every entry starts from its value in `out` and adds its k terms one by one in order
 * q = 0, 1, …, so the result is bit for bit that of the plain triple loop whatever m and n. `out` must not
 * overlap the rows of `src` read.
 */
export function gemmNnAccumulate(out: Float64Array, o: number, a: Float64Array, ao: number, lda: number, src: Float64Array, s: number,
  m: number, k: number, n: number, ld = n): void {
  let i = 0;
  for (; i + 3 < m; i += 4) {
    const a0 = ao + i * lda;
    const a1 = a0 + lda;
    const a2 = a1 + lda;
    const a3 = a2 + lda;
    const o0 = o + i * ld;
    const o1 = o0 + ld;
    const o2 = o1 + ld;
    const o3 = o2 + ld;
    let j = 0;
    for (; j + 7 < n; j += 8) {
      let c00 = out[o0 + j];
      let c01 = out[o0 + j + 1];
      let c02 = out[o0 + j + 2];
      let c03 = out[o0 + j + 3];
      let c04 = out[o0 + j + 4];
      let c05 = out[o0 + j + 5];
      let c06 = out[o0 + j + 6];
      let c07 = out[o0 + j + 7];
      let c10 = out[o1 + j];
      let c11 = out[o1 + j + 1];
      let c12 = out[o1 + j + 2];
      let c13 = out[o1 + j + 3];
      let c14 = out[o1 + j + 4];
      let c15 = out[o1 + j + 5];
      let c16 = out[o1 + j + 6];
      let c17 = out[o1 + j + 7];
      let c20 = out[o2 + j];
      let c21 = out[o2 + j + 1];
      let c22 = out[o2 + j + 2];
      let c23 = out[o2 + j + 3];
      let c24 = out[o2 + j + 4];
      let c25 = out[o2 + j + 5];
      let c26 = out[o2 + j + 6];
      let c27 = out[o2 + j + 7];
      let c30 = out[o3 + j];
      let c31 = out[o3 + j + 1];
      let c32 = out[o3 + j + 2];
      let c33 = out[o3 + j + 3];
      let c34 = out[o3 + j + 4];
      let c35 = out[o3 + j + 5];
      let c36 = out[o3 + j + 6];
      let c37 = out[o3 + j + 7];
      for (let q = 0; q < k; q++) {
        const r = s + q * ld + j;
        const b0 = src[r];
        const b1 = src[r + 1];
        const b2 = src[r + 2];
        const b3 = src[r + 3];
        const b4 = src[r + 4];
        const b5 = src[r + 5];
        const b6 = src[r + 6];
        const b7 = src[r + 7];
        const x0 = a[a0 + q];
        c00 += x0 * b0;
        c01 += x0 * b1;
        c02 += x0 * b2;
        c03 += x0 * b3;
        c04 += x0 * b4;
        c05 += x0 * b5;
        c06 += x0 * b6;
        c07 += x0 * b7;
        const x1 = a[a1 + q];
        c10 += x1 * b0;
        c11 += x1 * b1;
        c12 += x1 * b2;
        c13 += x1 * b3;
        c14 += x1 * b4;
        c15 += x1 * b5;
        c16 += x1 * b6;
        c17 += x1 * b7;
        const x2 = a[a2 + q];
        c20 += x2 * b0;
        c21 += x2 * b1;
        c22 += x2 * b2;
        c23 += x2 * b3;
        c24 += x2 * b4;
        c25 += x2 * b5;
        c26 += x2 * b6;
        c27 += x2 * b7;
        const x3 = a[a3 + q];
        c30 += x3 * b0;
        c31 += x3 * b1;
        c32 += x3 * b2;
        c33 += x3 * b3;
        c34 += x3 * b4;
        c35 += x3 * b5;
        c36 += x3 * b6;
        c37 += x3 * b7;
      }
      out[o0 + j] = c00;
      out[o0 + j + 1] = c01;
      out[o0 + j + 2] = c02;
      out[o0 + j + 3] = c03;
      out[o0 + j + 4] = c04;
      out[o0 + j + 5] = c05;
      out[o0 + j + 6] = c06;
      out[o0 + j + 7] = c07;
      out[o1 + j] = c10;
      out[o1 + j + 1] = c11;
      out[o1 + j + 2] = c12;
      out[o1 + j + 3] = c13;
      out[o1 + j + 4] = c14;
      out[o1 + j + 5] = c15;
      out[o1 + j + 6] = c16;
      out[o1 + j + 7] = c17;
      out[o2 + j] = c20;
      out[o2 + j + 1] = c21;
      out[o2 + j + 2] = c22;
      out[o2 + j + 3] = c23;
      out[o2 + j + 4] = c24;
      out[o2 + j + 5] = c25;
      out[o2 + j + 6] = c26;
      out[o2 + j + 7] = c27;
      out[o3 + j] = c30;
      out[o3 + j + 1] = c31;
      out[o3 + j + 2] = c32;
      out[o3 + j + 3] = c33;
      out[o3 + j + 4] = c34;
      out[o3 + j + 5] = c35;
      out[o3 + j + 6] = c36;
      out[o3 + j + 7] = c37;
    }
    for (; j + 3 < n; j += 4) {
      let c00 = out[o0 + j];
      let c01 = out[o0 + j + 1];
      let c02 = out[o0 + j + 2];
      let c03 = out[o0 + j + 3];
      let c10 = out[o1 + j];
      let c11 = out[o1 + j + 1];
      let c12 = out[o1 + j + 2];
      let c13 = out[o1 + j + 3];
      let c20 = out[o2 + j];
      let c21 = out[o2 + j + 1];
      let c22 = out[o2 + j + 2];
      let c23 = out[o2 + j + 3];
      let c30 = out[o3 + j];
      let c31 = out[o3 + j + 1];
      let c32 = out[o3 + j + 2];
      let c33 = out[o3 + j + 3];
      for (let q = 0; q < k; q++) {
        const r = s + q * ld + j;
        const b0 = src[r];
        const b1 = src[r + 1];
        const b2 = src[r + 2];
        const b3 = src[r + 3];
        const x0 = a[a0 + q];
        const x1 = a[a1 + q];
        const x2 = a[a2 + q];
        const x3 = a[a3 + q];
        c00 += x0 * b0;
        c01 += x0 * b1;
        c02 += x0 * b2;
        c03 += x0 * b3;
        c10 += x1 * b0;
        c11 += x1 * b1;
        c12 += x1 * b2;
        c13 += x1 * b3;
        c20 += x2 * b0;
        c21 += x2 * b1;
        c22 += x2 * b2;
        c23 += x2 * b3;
        c30 += x3 * b0;
        c31 += x3 * b1;
        c32 += x3 * b2;
        c33 += x3 * b3;
      }
      out[o0 + j] = c00;
      out[o0 + j + 1] = c01;
      out[o0 + j + 2] = c02;
      out[o0 + j + 3] = c03;
      out[o1 + j] = c10;
      out[o1 + j + 1] = c11;
      out[o1 + j + 2] = c12;
      out[o1 + j + 3] = c13;
      out[o2 + j] = c20;
      out[o2 + j + 1] = c21;
      out[o2 + j + 2] = c22;
      out[o2 + j + 3] = c23;
      out[o3 + j] = c30;
      out[o3 + j + 1] = c31;
      out[o3 + j + 2] = c32;
      out[o3 + j + 3] = c33;
    }
    for (; j < n; j++) {
      let c0 = out[o0 + j];
      let c1 = out[o1 + j];
      let c2 = out[o2 + j];
      let c3 = out[o3 + j];
      for (let q = 0; q < k; q++) {
        const b = src[s + q * ld + j];
        c0 += a[a0 + q] * b;
        c1 += a[a1 + q] * b;
        c2 += a[a2 + q] * b;
        c3 += a[a3 + q] * b;
      }
      out[o0 + j] = c0;
      out[o1 + j] = c1;
      out[o2 + j] = c2;
      out[o3 + j] = c3;
    }
  }
  for (; i < m; i++) {
    const ai = ao + i * lda;
    const oi = o + i * ld;
    let j = 0;
    for (; j + 3 < n; j += 4) {
      let c0 = out[oi + j];
      let c1 = out[oi + j + 1];
      let c2 = out[oi + j + 2];
      let c3 = out[oi + j + 3];
      for (let q = 0; q < k; q++) {
        const r = s + q * ld + j;
        const x = a[ai + q];
        c0 += x * src[r];
        c1 += x * src[r + 1];
        c2 += x * src[r + 2];
        c3 += x * src[r + 3];
      }
      out[oi + j] = c0;
      out[oi + j + 1] = c1;
      out[oi + j + 2] = c2;
      out[oi + j + 3] = c3;
    }
    for (; j < n; j++) {
      let c = out[oi + j];
      for (let q = 0; q < k; q++) c += a[ai + q] * src[s + q * ld + j];
      out[oi + j] = c;
    }
  }
}
