import type { InducingConditional } from './inducing-conditional.js';
import type { InducingRegulariser } from './inducing-regulariser.js';
import type { SparseGpGradient } from './sparse-gp-parameters.js';

/**
 * ½m_uᵀKuu⁻¹m_u, the regulariser of the square-loss DLM (Wei, Sheth & Khardon 2021, App. C): no
 * covariance term, ∇m_u = Kuu⁻¹m_u = α, K̄uu = −½ααᵀ; whitened, ½‖m̃‖².
 */
export class InducingMeanPenalty implements InducingRegulariser {
  readonly covariance = false;

  constructor(readonly M: number) {}

  value(q: InducingConditional): number {
    let quad = 0;
    for (let a = 0; a < this.M; a++) quad += q.meanSolve[a] * q.meanSolve[a];
    return 0.5 * quad;
  }

  whitenedValue(m: Float64Array, _L: Float64Array, M: number): number {
    let reg = 0;
    for (let a = 0; a < M; a++) reg += m[a] * m[a];
    return 0.5 * reg;
  }

  addGradient(q: InducingConditional, beta: number): void {
    for (let a = 0; a < this.M; a++) q.gmU[a] += beta * q.alpha[a];
  }

  addWhitenedGradient(m: Float64Array, _L: Float64Array, M: number, beta: number, gradient: SparseGpGradient): void {
    for (let a = 0; a < M; a++) gradient.m[a] += beta * m[a];
  }

  addKuuAdjoint(q: InducingConditional, beta: number): void {
    const M = this.M;
    const { kuuBar, alpha } = q;
    const half = 0.5 * beta;
    for (let a = 0; a < M; a++) for (let b = 0; b < M; b++) kuuBar[a * M + b] -= half * alpha[a] * alpha[b];
  }
}
