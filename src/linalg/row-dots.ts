/** out[o + j] = Σ_i x[xa + i]·y[(j)·n + i] for j ≤ last (rows 0..last of y), eight rows of y per pass, then four, then one. */
export function rowDots(x: Float64Array, xa: number, y: Float64Array, last: number, n: number, out: Float64Array, o: number): void {
  let j = 0;
  for (; j + 7 <= last; j += 8) {
    const r0 = j * n;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    let s5 = 0;
    let s6 = 0;
    let s7 = 0;
    for (let i = 0; i < n; i++) {
      const e = x[xa + i];
      const r = r0 + i;
      s0 += e * y[r];
      s1 += e * y[r + n];
      s2 += e * y[r + 2 * n];
      s3 += e * y[r + 3 * n];
      s4 += e * y[r + 4 * n];
      s5 += e * y[r + 5 * n];
      s6 += e * y[r + 6 * n];
      s7 += e * y[r + 7 * n];
    }
    out[o + j] = s0;
    out[o + j + 1] = s1;
    out[o + j + 2] = s2;
    out[o + j + 3] = s3;
    out[o + j + 4] = s4;
    out[o + j + 5] = s5;
    out[o + j + 6] = s6;
    out[o + j + 7] = s7;
  }
  for (; j + 3 <= last; j += 4) {
    const r0 = j * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = 0; i < n; i++) {
      const e = x[xa + i];
      s0 += e * y[r0 + i];
      s1 += e * y[r1 + i];
      s2 += e * y[r2 + i];
      s3 += e * y[r3 + i];
    }
    out[o + j] = s0;
    out[o + j + 1] = s1;
    out[o + j + 2] = s2;
    out[o + j + 3] = s3;
  }
  for (; j <= last; j++) {
    const r = j * n;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += x[xa + i] * y[r + i];
    out[o + j] = sum;
  }
}
