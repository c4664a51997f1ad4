import { gemmNt } from '../../linalg/gemm-nt.js';
import { solveLowerTransposedTiled } from '../../linalg/solve-lower-transposed-tiled.js';
import type { InducingConditional } from './inducing-conditional.js';
import type { InducingRegulariser } from './inducing-regulariser.js';
import type { SparseGpGradient } from './sparse-gp-parameters.js';

/**
 * KL(q(u) ‖ p(u)) = ½(tr(Kuu⁻¹S) + m_uᵀKuu⁻¹m_u − M + log|Kuu| − log|S|), S = L_u L_uᵀ, the regulariser
 * of the ELBO and the log-loss DLM (Wei, Sheth & Khardon 2021, eqs. 3 and 8), with
 * ∇m_u = Kuu⁻¹m_u, ∇L_u = tril(Kuu⁻¹L_u) − diag(1/L_jj) and K̄uu = ½(Kuu⁻¹ − Kuu⁻¹SKuu⁻¹ − ααᵀ);
 * whitened, ½(‖L̃‖² + ‖m̃‖² − M − 2Σ log L̃_jj).
 */
export class InducingKl implements InducingRegulariser {
  readonly covariance = true;
  private readonly work: Float64Array;
  private readonly scratch: Float64Array;

  constructor(readonly M: number) {
    this.work = new Float64Array(M * M);
    this.scratch = new Float64Array(M * M);
  }

  /** R at the conditional's q(u), with X1 = Lk⁻¹L_u its L̂. */
  value(q: InducingConditional): number {
    const M = this.M;
    const { lk, lU, meanSolve } = q;
    const x1 = q.lhat;
    let quad = 0;
    for (let a = 0; a < M; a++) quad += meanSolve[a] * meanSolve[a];
    let frob = 0;
    let logDet = 0;
    for (let col = 0; col < M; col++) for (let a = 0; a < M; a++) frob += x1[a * M + col] * x1[a * M + col];
    for (let a = 0; a < M; a++) logDet += Math.log(lk[a * M + a]) - Math.log(lU[a * M + a]);
    return 0.5 * (frob + quad - M + 2 * logDet);
  }

  whitenedValue(m: Float64Array, L: Float64Array, M: number): number {
    let reg = -M;
    for (let a = 0; a < M; a++) {
      reg += m[a] * m[a];
      reg -= 2 * Math.log(L[a * M + a]);
      for (let b = 0; b <= a; b++) reg += L[a * M + b] * L[a * M + b];
    }
    return 0.5 * reg;
  }

  addGradient(q: InducingConditional, beta: number): void {
    const M = this.M;
    const { gmU, gLU, alpha, lk, lU } = q;
    for (let a = 0; a < M; a++) gmU[a] += beta * alpha[a];
    // β(tril(Kuu⁻¹L) − diag(1/L_jj)), Kuu⁻¹L = Lk⁻ᵀ X1
    const work = this.work;
    work.set(q.lhat);
    solveLowerTransposedTiled(lk, M, work, M, this.scratch);
    for (let a = 0; a < M; a++) {
      for (let b = 0; b <= a; b++) gLU[a * M + b] += beta * work[a * M + b];
      gLU[a * M + a] -= beta / lU[a * M + a];
    }
  }

  addWhitenedGradient(m: Float64Array, L: Float64Array, M: number, beta: number, gradient: SparseGpGradient): void {
    for (let a = 0; a < M; a++) gradient.m[a] += beta * m[a];
    for (let a = 0; a < M; a++) {
      for (let b = 0; b <= a; b++) gradient.L[a * M + b] += beta * L[a * M + b];
      gradient.L[a * M + a] -= beta / L[a * M + a];
    }
  }

  addKuuAdjoint(q: InducingConditional, beta: number): void {
    const M = this.M;
    const { kuuBar, alpha, ainv, ks } = q;
    const half = 0.5 * beta;
    const ksa = this.work;
    // Kuu⁻¹S·Kuu⁻¹ (rows of Kuu⁻¹S against rows of the symmetric Kuu⁻¹) is symmetric: its lower triangle, mirrored
    gemmNt(ksa, M, ks, ainv, M, M, M, true);
    for (let a = 0; a < M; a++) for (let b = 0; b < a; b++) ksa[b * M + a] = ksa[a * M + b];
    for (let a = 0; a < M; a++) {
      for (let b = 0; b < M; b++) {
        kuuBar[a * M + b] -= half * alpha[a] * alpha[b];
        kuuBar[a * M + b] += half * (ainv[a * M + b] - ksa[a * M + b]);
      }
    }
  }
}
