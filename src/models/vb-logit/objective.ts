import { lgamma } from '../../special/lgamma.js';
import type { VbLogitPrior } from './state.js';

/**
 * The hyperprior part of the bound L̃(Q, ξ) (Drugowitsch eq. 60, ARD eq. 80) as VBLinLogit arranges
 * it: ½(wᵀV⁻¹w + ln|V|) − b0·Σ E[αᵢ] − a_N·Σ ln b_Nᵢ + K·(ln Γ(a_N) + a_N), K = 1 or d. Add the data
 * terms Σ(ln σ(ξ) − ξ/2 + λξ²) for the in-loop bound, and {@link vbLogitBoundConstant} for L.
 */
export function vbLogitGlobalBound(q: number, logDetV: number, prior: VbLogitPrior, an: number, expectedAlphaSum: number, sumLogBn: number, alphaCount: number): number {
  return 0.5 * (q + logDetV) - prior.b0 * expectedAlphaSum - an * sumLogBn + alphaCount * (lgamma(an) + an);
}

/** The constant K·(−ln Γ(a0) + a0 ln b0) that completes L̃. */
export function vbLogitBoundConstant(prior: VbLogitPrior, alphaCount: number): number {
  return alphaCount * (-lgamma(prior.a0) + prior.a0 * Math.log(prior.b0));
}
