import type { SparseGpGradient } from './sparse-gp-parameters.js';

/**
 * The regulariser R(q) of a sparse-GP objective Σ_i ℓ_i + β·R, taken in whitened terms: q(v) = N(m̃, L̃L̃ᵀ)
 * against p(v) = N(0, I) with u = Lk v, so m̃ = Lk⁻¹m_u and L̃ = Lk⁻¹L_u for an unwhitened q(u) (R is the
 * same there, the conditional chains its gradient back): its value and gradient in (m̃, L̃).
 */
export interface InducingRegulariser {
  /** Whether R, and with it the objective, depends on the covariance of q (else the objective's L-gradient is 0). */
  readonly covariance: boolean;
  /** R in the whitened form, at m̃ (M) and L̃ (M×M lower). */
  whitenedValue(m: Float64Array, L: Float64Array, M: number): number;
  /** Adds β∇R in (m̃, L̃) to `gradient`. */
  addWhitenedGradient(m: Float64Array, L: Float64Array, M: number, beta: number, gradient: SparseGpGradient): void;
}
