import { rowDotsRows } from '../../linalg/row-dots-rows.js';
import { solveLowerTransposedRows } from '../../linalg/solve-lower-transposed-rows.js';
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
  /** X1 = Lk⁻¹L_u of the last {@link value}. */
  private readonly x1: Float64Array;
  private readonly work: Float64Array;

  constructor(readonly M: number) {
    this.x1 = new Float64Array(M * M);
    this.work = new Float64Array(M * M);
  }

  value(q: InducingConditional): number {
    const M = this.M;
    const { lk, lU, meanSolve } = q;
    const x1 = this.x1;
    let quad = 0;
    for (let a = 0; a < M; a++) quad += meanSolve[a] * meanSolve[a];
    // X1 = Lk⁻¹L_u by forward substitution along rows (each entry's arithmetic as column by column)
    x1.fill(0);
    for (let a = 0; a < M; a++) {
      const row = a * M;
      for (let c = 0; c <= a; c++) x1[row + c] = lU[row + c];
      for (let b = 0; b < a; b++) {
        const f = lk[row + b];
        const source = b * M;
        for (let c = 0; c <= b; c++) x1[row + c] -= f * x1[source + c];
      }
      const diagonal = lk[row + a];
      for (let c = 0; c <= a; c++) x1[row + c] /= diagonal;
    }
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
    work.set(this.x1);
    solveLowerTransposedRows(lk, M, work, M);
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
    rowDotsRows(ks, ainv, M, M, M, ksa, M, false);
    for (let a = 0; a < M; a++) {
      for (let b = 0; b < M; b++) {
        kuuBar[a * M + b] -= half * alpha[a] * alpha[b];
        kuuBar[a * M + b] += half * (ainv[a * M + b] - ksa[a * M + b]);
      }
    }
  }
}
