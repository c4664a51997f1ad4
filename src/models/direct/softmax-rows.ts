/**
 * Row-wise softmax of `rows` blocks of `width` logits read from `logits[offset ..]`: writes the
 * probabilities into `q` and their logs into `logQ` (both indexed from 0), stably (max shift).
 */
export function softmaxRows(logits: Float64Array, offset: number, rows: number, width: number, q: Float64Array, logQ: Float64Array): void {
  for (let j = 0; j < rows; j++) {
    const base = j * width;
    let max = -Infinity;
    for (let m = 0; m < width; m++) max = Math.max(max, logits[offset + base + m]);
    let total = 0;
    for (let m = 0; m < width; m++) total += Math.exp(logits[offset + base + m] - max);
    const logTotal = Math.log(total);
    for (let m = 0; m < width; m++) {
      const l = logits[offset + base + m] - max - logTotal;
      logQ[base + m] = l;
      q[base + m] = Math.exp(l);
    }
  }
}
