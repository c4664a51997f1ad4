import type { InducingRegulariser } from './inducing-regulariser.js';
import type { SparseGpGradient } from './sparse-gp-parameters.js';

/**
 * KL(q(u) ‖ p(u)) = ½(tr(Kuu⁻¹S) + m_uᵀKuu⁻¹m_u − M + log|Kuu| − log|S|), S = L_u L_uᵀ, the regulariser
 * of the ELBO and the log-loss DLM (Wei, Sheth & Khardon 2021, eqs. 3 and 8), taken in whitened terms
 * (m̃ = Lk⁻¹m_u, L̃ = Lk⁻¹L_u): ½(‖L̃‖² + ‖m̃‖² − M − 2Σ log L̃_jj), ∇m̃ = m̃, ∇L̃ = L̃ − diag(1/L̃_jj).
 */
export class InducingKl implements InducingRegulariser {
  readonly covariance = true;

  whitenedValue(m: Float64Array, L: Float64Array, M: number): number {
    let reg = -M;
    for (let a = 0; a < M; a++) {
      reg += m[a] * m[a];
      reg -= 2 * Math.log(L[a * M + a]);
      for (let b = 0; b <= a; b++) reg += L[a * M + b] * L[a * M + b];
    }
    return 0.5 * reg;
  }

  addWhitenedGradient(m: Float64Array, L: Float64Array, M: number, beta: number, gradient: SparseGpGradient): void {
    for (let a = 0; a < M; a++) gradient.m[a] += beta * m[a];
    for (let a = 0; a < M; a++) {
      for (let b = 0; b <= a; b++) gradient.L[a * M + b] += beta * L[a * M + b];
      gradient.L[a * M + a] -= beta / L[a * M + a];
    }
  }
}
