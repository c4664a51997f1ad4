import { spdInverse } from '../../linalg/spd-inverse.js';

/**
 * V_N of the kept weights only: the kept rows and columns of `invV` gathered into a k×k block,
 * inverted (O(k³), so a pass costs less as weights are pruned) and scattered into `V`, which is 0
 * on the pruned rows and columns. Returns ln|V_N⁻¹| of the kept block. `compact` holds 2·d² values.
 */
export function inverseOfKept(invV: Float64Array, d: number, pruned: ArrayLike<number>, V: Float64Array, compact: Float64Array): number {
  const keep: number[] = [];
  for (let i = 0; i < d; i++) if (pruned[i] === 0) keep.push(i);
  const k = keep.length;
  V.fill(0);
  if (k === 0) return 0;
  const block = compact.subarray(0, k * k);
  const inverse = compact.subarray(d * d, d * d + k * k);
  for (let a = 0; a < k; a++) {
    const row = keep[a] * d;
    for (let b = 0; b < k; b++) block[a * k + b] = invV[row + keep[b]];
  }
  const logDet = spdInverse(block, k, inverse, undefined, { what: 'posterior precision V_N⁻¹' });
  for (let a = 0; a < k; a++) {
    const row = keep[a] * d;
    for (let b = 0; b < k; b++) V[row + keep[b]] = inverse[a * k + b];
  }
  return logDet;
}
