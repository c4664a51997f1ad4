import { dot } from '../../linalg/dot.js';
import { trace } from '../../linalg/trace.js';
import type { VbLinearState } from './state.js';

/**
 * The q(α) update from q(w, τ) (Drugowitsch eq. 13–14; ARD eq. 30–31): d_N = d0 + ½(E[τ]·w_N² +
 * V_N) per weight with ARD (summed over the weights without), E[α] = c_N/d_N written over
 * `expectedAlpha` (pruned weights keep theirs). Returns Σ ln d_N over the updated precisions.
 */
export function updateExpectedAlpha(state: VbLinearState, w: Float64Array, V: Float64Array, expectedTau: number, pruned: ArrayLike<number>, expectedAlpha: Float64Array): number {
  const { dim: d, prior } = state;
  if (state.ard) {
    const cn = prior.c0 + 0.5;
    let sumLogDn = 0;
    for (let i = 0; i < d; i++) {
      if (pruned[i] === 1) continue;
      const dn = prior.d0 + 0.5 * (expectedTau * w[i] * w[i] + V[i * d + i]);
      expectedAlpha[i] = cn / dn;
      sumLogDn += Math.log(dn);
    }
    return sumLogDn;
  }
  const dn = prior.d0 + 0.5 * (expectedTau * dot(w, w, d) + trace(V, d));
  expectedAlpha[0] = (prior.c0 + d / 2) / dn;
  return Math.log(dn);
}
