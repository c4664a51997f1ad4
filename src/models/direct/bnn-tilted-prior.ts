import type { Rng } from '../../rng/rng.js';
import type { DirectGrid } from './state.js';

/**
 * A random start of the `direct-bnn` fit: every weight's prior tilted by a seeded
 * N(0, scale²) draw z_j, q_j(w̄) ∝ p_j(w̄)·exp(z_j w̄). Tilting moves the means E[w_j] off 0 in a random
 * direction: the network is invariant to u_h → −u_h, so a q symmetric in u_h (the prior, or a
 * perturbation of its logits atom by atom) sits on a saddle where the cross terms u_hi u_hk stay 0.
 * Writes the b·m̄ weight logits of `logits`.
 */
export function tiltedPrior(grid: DirectGrid, rng: Rng, scale: number, logits: Float64Array): void {
  const { b, mbar, support, logPrior } = grid;
  for (let j = 0; j < b; j++) {
    const z = scale * rng.normal();
    for (let m = 0; m < mbar; m++) logits[j * mbar + m] = logPrior[j * mbar + m] + z * support[j * mbar + m];
  }
}
