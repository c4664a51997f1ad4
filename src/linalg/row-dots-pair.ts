/**
 * {@link rowDots} for two adjacent rows of x (at xa and xa + n) into out[o + j] and out[o1 + j], j ≤ last:
 * four rows of y per pass, each loaded once for both; every sum runs in the order of rowDots.
 */
export function rowDotsPair(x: Float64Array, xa: number, y: Float64Array, last: number, n: number, out: Float64Array, o: number, o1: number): void {
  const xb = xa + n;
  let j = 0;
  for (; j + 3 <= last; j += 4) {
    const r0 = j * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    let b0 = 0;
    let b1 = 0;
    let b2 = 0;
    let b3 = 0;
    for (let i = 0; i < n; i++) {
      const e = x[xa + i];
      const f = x[xb + i];
      const y0 = y[r0 + i];
      const y1 = y[r1 + i];
      const y2 = y[r2 + i];
      const y3 = y[r3 + i];
      a0 += e * y0;
      a1 += e * y1;
      a2 += e * y2;
      a3 += e * y3;
      b0 += f * y0;
      b1 += f * y1;
      b2 += f * y2;
      b3 += f * y3;
    }
    out[o + j] = a0;
    out[o + j + 1] = a1;
    out[o + j + 2] = a2;
    out[o + j + 3] = a3;
    out[o1 + j] = b0;
    out[o1 + j + 1] = b1;
    out[o1 + j + 2] = b2;
    out[o1 + j + 3] = b3;
  }
  for (; j <= last; j++) {
    const r = j * n;
    let sa = 0;
    let sb = 0;
    for (let i = 0; i < n; i++) {
      const yi = y[r + i];
      sa += x[xa + i] * yi;
      sb += x[xb + i] * yi;
    }
    out[o + j] = sa;
    out[o1 + j] = sb;
  }
}
