/**
 * log Σᵢ exp(values[i]) over values[start .. start + length), without overflow or underflow.
 *
 * Algorithm: shift by the maximum m, then m + log1p(Σ_{i ≠ argmax} exp(vᵢ − m)) (two passes,
 * no allocation). Special values: an empty range or all −Infinity → −Infinity; any +Infinity
 * → +Infinity; any NaN → NaN. Accuracy: a few ulps of the result.
 *
 * @throws RangeError if `start`/`length` are not non-negative integers or exceed `values.length`.
 */
export function logSumExp(
  values: ArrayLike<number>,
  start = 0,
  length = values.length - start,
): number {
  if (!Number.isInteger(start) || start < 0 || start > values.length) {
    throw new RangeError(`logSumExp: start must be an integer in [0, ${values.length}], got ${start}`);
  }
  if (!Number.isInteger(length) || length < 0 || start + length > values.length) {
    throw new RangeError(
      `logSumExp: length must be an integer in [0, ${values.length - start}], got ${length}`,
    );
  }
  const end = start + length;
  let max = -Infinity;
  let argmax = -1;
  for (let i = start; i < end; i++) {
    const v = values[i];
    if (v > max) {
      max = v;
      argmax = i;
    } else if (v !== v) {
      return NaN;
    }
  }
  if (max === Infinity || max === -Infinity) return max;
  let sum = 0;
  for (let i = start; i < end; i++) {
    if (i !== argmax) sum += Math.exp(values[i] - max);
  }
  return max + Math.log1p(sum);
}
