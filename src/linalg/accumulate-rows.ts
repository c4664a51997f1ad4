/**
 * out[o + i] += scale·Σ_k coef[c0 + k·cs]·src[(r0 + k)·n + i] for k < count and i < n: the sources in
 * groups of four (each group summed, then added to the target), then one by one; eight per pass (two
 * groups, one load and store of the target row), so the sums are the same for any pass width.
 */
export function accumulateRows(out: Float64Array, o: number, src: Float64Array, r0: number, count: number, n: number,
  coef: Float64Array, c0: number, cs: number, scale: number): void {
  let k = 0;
  for (; k + 7 < count; k += 8) {
    const l0 = scale * coef[c0 + k * cs];
    const l1 = scale * coef[c0 + (k + 1) * cs];
    const l2 = scale * coef[c0 + (k + 2) * cs];
    const l3 = scale * coef[c0 + (k + 3) * cs];
    const l4 = scale * coef[c0 + (k + 4) * cs];
    const l5 = scale * coef[c0 + (k + 5) * cs];
    const l6 = scale * coef[c0 + (k + 6) * cs];
    const l7 = scale * coef[c0 + (k + 7) * cs];
    const s0 = (r0 + k) * n;
    const s1 = s0 + n;
    const s2 = s1 + n;
    const s3 = s2 + n;
    const s4 = s3 + n;
    const s5 = s4 + n;
    const s6 = s5 + n;
    const s7 = s6 + n;
    for (let i = 0; i < n; i++) {
      out[o + i] = out[o + i] + (l0 * src[s0 + i] + l1 * src[s1 + i] + l2 * src[s2 + i] + l3 * src[s3 + i])
        + (l4 * src[s4 + i] + l5 * src[s5 + i] + l6 * src[s6 + i] + l7 * src[s7 + i]);
    }
  }
  for (; k + 3 < count; k += 4) {
    const l0 = scale * coef[c0 + k * cs];
    const l1 = scale * coef[c0 + (k + 1) * cs];
    const l2 = scale * coef[c0 + (k + 2) * cs];
    const l3 = scale * coef[c0 + (k + 3) * cs];
    const s0 = (r0 + k) * n;
    const s1 = s0 + n;
    const s2 = s1 + n;
    const s3 = s2 + n;
    for (let i = 0; i < n; i++) out[o + i] += l0 * src[s0 + i] + l1 * src[s1 + i] + l2 * src[s2 + i] + l3 * src[s3 + i];
  }
  for (; k < count; k++) {
    const l = scale * coef[c0 + k * cs];
    const sk = (r0 + k) * n;
    for (let i = 0; i < n; i++) out[o + i] += l * src[sk + i];
  }
}
