import { accumulateRows } from './accumulate-rows.js';
import { accumulateRowPair } from './accumulate-row-pair.js';

/**
 * out[a, :] = Σ_{b ≥ a} l[b, a]·src[b, :] (M rows of length n, l lower-triangular M×M), bit for bit one
 * {@link accumulateRows} per row (groups of four from b = a): row a takes its first group alone, then
 * shares the aligned groups from b = a + 4 on with row a + 4.
 */
export function lowerTransposedTimes(out: Float64Array, src: Float64Array, l: Float64Array, M: number, n: number): void {
  out.fill(0, 0, M * n);
  for (let a = 0; a < M; a++) {
    if (a % 8 >= 4) continue;
    const partner = a + 4;
    if (partner >= M) {
      accumulateRows(out, a * n, src, a, M - a, n, l, a * M + a, M, 1);
      continue;
    }
    accumulateRows(out, a * n, src, a, 4, n, l, a * M + a, M, 1);
    accumulateRowPair(out, a * n, partner * n, src, partner, M - partner, n, l, partner * M + a, partner * M + partner, M, 1);
  }
}
