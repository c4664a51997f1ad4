import { lgamma } from '../../special/lgamma.js';
import type { VbLinearPrior } from './state.js';

/** The pieces of the bound that change from one VB iteration to the next. */
export interface VbLinearBoundTerms {
  /** E[τ] = a_N / b_N. */
  readonly expectedTau: number;
  /** Σ (y − xᵀw_N)². */
  readonly sse: number;
  /** Tr(XᵀX·V_N) = Σ xᵀV_N x. */
  readonly traceXtxV: number;
  readonly logDetV: number;
  readonly an: number;
  readonly bn: number;
  readonly cn: number;
  /** Σ log d_N over the shrinkage parameters (one term without ARD, d terms with it). */
  readonly sumLogDn: number;
  /** Number of shrinkage parameters α (1, or d with ARD). */
  readonly alphaCount: number;
}

/**
 * Variational bound L(Q) of Drugowitsch eq. (22) (eq. 33 with ARD) without its constant terms, in
 * the reference's arrangement: −½(E[τ]·sse + Tr(XᵀX V)) + ½ ln|V| − b0·E[τ] + ln Γ(a_N) − a_N ln b_N
 * + a_N + K·ln Γ(c_N) − c_N Σ ln d_N.
 */
export function vbLinearBoundWithoutConstants(t: VbLinearBoundTerms, prior: VbLinearPrior): number {
  return -0.5 * (t.expectedTau * t.sse + t.traceXtxV) + 0.5 * t.logDetV - prior.b0 * t.expectedTau
    + lgamma(t.an) - t.an * Math.log(t.bn) + t.an + t.alphaCount * lgamma(t.cn) - t.cn * t.sumLogDn;
}

/** The constant that turns the in-loop bound into L(Q) ≤ ln p(y | X): −½(N ln 2π − D) − ln Γ(a0) + a0 ln b0 + K(−ln Γ(c0) + c0 ln d0). */
export function vbLinearBoundConstant(n: number, dim: number, alphaCount: number, prior: VbLinearPrior): number {
  return -0.5 * (n * Math.log(2 * Math.PI) - dim) - lgamma(prior.a0) + prior.a0 * Math.log(prior.b0)
    + alphaCount * (-lgamma(prior.c0) + prior.c0 * Math.log(prior.d0));
}
