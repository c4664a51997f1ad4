/**
 * out[r] = ‖L⁻¹xᵣ‖² = xᵣᵀ(LLᵀ)⁻¹xᵣ for each row xᵣ of a row-major n×d X and a row-major lower-triangular
 * d×d L: forward substitution for eight rows at a time (one load of L per eight multiply-adds, eight
 * independent chains), each row's arithmetic in the order of {@link solveLower} then {@link dot}, so
 * the results are bit for bit theirs. `work` (length ≥ 8d) is scratch.
 */
export function solveLowerRowNorms(l: Float64Array, d: number, x: Float64Array, n: number, out: Float64Array, work: Float64Array): void {
  let r = 0;
  for (; r + 7 < n; r += 8) {
    const b0 = r * d;
    let n0 = 0;
    let n1 = 0;
    let n2 = 0;
    let n3 = 0;
    let n4 = 0;
    let n5 = 0;
    let n6 = 0;
    let n7 = 0;
    for (let i = 0; i < d; i++) {
      const xi = b0 + i;
      let s0 = x[xi];
      let s1 = x[xi + d];
      let s2 = x[xi + 2 * d];
      let s3 = x[xi + 3 * d];
      let s4 = x[xi + 4 * d];
      let s5 = x[xi + 5 * d];
      let s6 = x[xi + 6 * d];
      let s7 = x[xi + 7 * d];
      const row = i * d;
      for (let k = 0; k < i; k++) {
        const lik = l[row + k];
        const w = 8 * k;
        s0 -= lik * work[w];
        s1 -= lik * work[w + 1];
        s2 -= lik * work[w + 2];
        s3 -= lik * work[w + 3];
        s4 -= lik * work[w + 4];
        s5 -= lik * work[w + 5];
        s6 -= lik * work[w + 6];
        s7 -= lik * work[w + 7];
      }
      const diagonal = l[row + i];
      s0 /= diagonal;
      s1 /= diagonal;
      s2 /= diagonal;
      s3 /= diagonal;
      s4 /= diagonal;
      s5 /= diagonal;
      s6 /= diagonal;
      s7 /= diagonal;
      const w = 8 * i;
      work[w] = s0;
      work[w + 1] = s1;
      work[w + 2] = s2;
      work[w + 3] = s3;
      work[w + 4] = s4;
      work[w + 5] = s5;
      work[w + 6] = s6;
      work[w + 7] = s7;
      n0 += s0 * s0;
      n1 += s1 * s1;
      n2 += s2 * s2;
      n3 += s3 * s3;
      n4 += s4 * s4;
      n5 += s5 * s5;
      n6 += s6 * s6;
      n7 += s7 * s7;
    }
    out[r] = n0;
    out[r + 1] = n1;
    out[r + 2] = n2;
    out[r + 3] = n3;
    out[r + 4] = n4;
    out[r + 5] = n5;
    out[r + 6] = n6;
    out[r + 7] = n7;
  }
  for (; r < n; r++) {
    const base = r * d;
    let norm = 0;
    for (let i = 0; i < d; i++) {
      let s = x[base + i];
      const row = i * d;
      for (let k = 0; k < i; k++) s -= l[row + k] * work[k];
      s /= l[row + i];
      work[i] = s;
      norm += s * s;
    }
    out[r] = norm;
  }
}
