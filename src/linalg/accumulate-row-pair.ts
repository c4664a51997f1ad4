/**
 * The same as {@link accumulateRows} for two target rows at once (at o and o1, coefficients from c0 and
 * c1), each source row loaded once for both; the same groups of four, so each target's sums are
 * bit for bit those of its own accumulateRows over the same sources.
 */
export function accumulateRowPair(out: Float64Array, o: number, o1: number, src: Float64Array, r0: number, count: number, n: number,
  coef: Float64Array, c0: number, c1: number, cs: number, scale: number): void {
  let k = 0;
  for (; k + 3 < count; k += 4) {
    const p0 = scale * coef[c0 + k * cs];
    const p1 = scale * coef[c0 + (k + 1) * cs];
    const p2 = scale * coef[c0 + (k + 2) * cs];
    const p3 = scale * coef[c0 + (k + 3) * cs];
    const q0 = scale * coef[c1 + k * cs];
    const q1 = scale * coef[c1 + (k + 1) * cs];
    const q2 = scale * coef[c1 + (k + 2) * cs];
    const q3 = scale * coef[c1 + (k + 3) * cs];
    const s0 = (r0 + k) * n;
    const s1 = s0 + n;
    const s2 = s1 + n;
    const s3 = s2 + n;
    for (let i = 0; i < n; i++) {
      const x0 = src[s0 + i];
      const x1 = src[s1 + i];
      const x2 = src[s2 + i];
      const x3 = src[s3 + i];
      out[o + i] += p0 * x0 + p1 * x1 + p2 * x2 + p3 * x3;
      out[o1 + i] += q0 * x0 + q1 * x1 + q2 * x2 + q3 * x3;
    }
  }
  for (; k < count; k++) {
    const p0 = scale * coef[c0 + k * cs];
    const q0 = scale * coef[c1 + k * cs];
    const sk = (r0 + k) * n;
    for (let i = 0; i < n; i++) {
      const x0 = src[sk + i];
      out[o + i] += p0 * x0;
      out[o1 + i] += q0 * x0;
    }
  }
}
