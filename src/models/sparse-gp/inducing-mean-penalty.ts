import type { InducingRegulariser } from './inducing-regulariser.js';
import type { SparseGpGradient } from './sparse-gp-parameters.js';

/**
 * ½m_uᵀKuu⁻¹m_u, the regulariser of the square-loss DLM (Wei, Sheth & Khardon 2021, App. C), taken in
 * whitened terms (m̃ = Lk⁻¹m_u): ½‖m̃‖², ∇m̃ = m̃; no covariance term.
 */
export class InducingMeanPenalty implements InducingRegulariser {
  readonly covariance = false;

  whitenedValue(m: Float64Array, _L: Float64Array, M: number): number {
    let reg = 0;
    for (let a = 0; a < M; a++) reg += m[a] * m[a];
    return 0.5 * reg;
  }

  addWhitenedGradient(m: Float64Array, _L: Float64Array, M: number, beta: number, gradient: SparseGpGradient): void {
    for (let a = 0; a < M; a++) gradient.m[a] += beta * m[a];
  }
}
