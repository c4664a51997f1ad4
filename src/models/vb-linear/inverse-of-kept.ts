import { spdInverse } from '../../linalg/spd-inverse.js';

/**
 * V_N of the kept weights only: the kept rows and columns of `invV` gathered into a k×k block,
 * inverted (O(k³), so a pass costs less as weights are pruned) and scattered into `V`, which is 0
 * on the pruned rows and columns. Returns ln|V_N⁻¹| of the kept block. `compact` holds 2·d² values.
 */
export function inverseOfKept(invV: Float64Array, d: number, pruned: ArrayLike<number>, V: Float64Array, compact: Float64Array, factor: Float64Array): number {
  let k = 0;
  for (let i = 0; i < d; i++) if (pruned[i] === 0) k++;
  V.fill(0);
  if (k === 0) return 0;
  const block = compact.subarray(0, k * k);
  const inverse = compact.subarray(d * d, d * d + k * k);
  let a = 0;
  for (let i = 0; i < d; i++) {
    if (pruned[i] === 1) continue;
    let b = 0;
    for (let j = 0; j < d; j++) if (pruned[j] === 0) block[a * k + b++] = invV[i * d + j];
    a++;
  }
  const logDet = spdInverse(block, k, inverse, factor.subarray(0, k * k), { what: 'posterior precision V_N⁻¹' });
  a = 0;
  for (let i = 0; i < d; i++) {
    if (pruned[i] === 1) continue;
    let b = 0;
    for (let j = 0; j < d; j++) if (pruned[j] === 0) V[i * d + j] = inverse[a * k + b++];
    a++;
  }
  return logDet;
}
