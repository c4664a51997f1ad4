import type { InducingConditional } from './inducing-conditional.js';
import type { SparseGpGradient } from './sparse-gp-parameters.js';

/**
 * The regulariser R(q) of a sparse-GP objective Σ_i ℓ_i + β·R over q(u) = N(m_u, L_u L_uᵀ) and the
 * prior p(u) = N(0, Kuu): its value and its terms of ∇m_u, ∇L_u and K̄uu, added to the
 * conditional's, or, in the whitened form q(v) = N(m̃, L̃L̃ᵀ), p(v) = N(0, I), its value and gradient.
 */
export interface InducingRegulariser {
  /** Whether R, and with it the objective, depends on the covariance of q (else the objective's L-gradient is 0). */
  readonly covariance: boolean;
  /** R at the conditional's q(u), after its `marginals`. */
  value(q: InducingConditional): number;
  /** R in the whitened form, at m̃ (M) and L̃ (M×M lower). */
  whitenedValue(m: Float64Array, L: Float64Array, M: number): number;
  /** Adds β∇R to the conditional's ∇m_u, ∇L_u (after {@link value}). */
  addGradient(q: InducingConditional, beta: number): void;
  /** Adds β∇R in (m̃, L̃) to `gradient`. */
  addWhitenedGradient(m: Float64Array, L: Float64Array, M: number, beta: number, gradient: SparseGpGradient): void;
  /** Adds βK̄uu of R to the conditional's K̄uu (after its `hyperBackward`). */
  addKuuAdjoint(q: InducingConditional, beta: number): void;
}
