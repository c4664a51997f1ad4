import type { Rng } from '../../rng/rng.js';

/** Derivatives of one point's loss ℓ_i(μ_i, v_i): ∂/∂μ_i, ∂/∂v_i and ∂/∂log σ² (Gaussian noise; 0 otherwise). */
export interface PointLossGradient {
  dm: number;
  dv: number;
  dLogNoise: number;
}

/**
 * One sparse-GP objective, Σ_i ℓ_i(μ_i, v_i) + β·R(q): the objectives differ only in the data term
 * ℓ_i and in the regulariser R, which is KL(q(u) ‖ p(u)) for the ELBO and the log-loss DLM
 * (Wei, Sheth & Khardon 2021, eqs. 3 and 8) and ½ mᵀKuu⁻¹m for the square-loss DLM (their App. C).
 */
export interface SparseGpObjective {
  readonly id: 'elbo' | 'dlm' | 'sq-dlm' | 'bmc-dlm' | 'ups-dlm';
  /** R: `kl` ({@link InducingKl}) or `mean` ({@link InducingMeanPenalty}, with a data term that ignores v, so the objective does not depend on L). */
  readonly regulariser: 'kl' | 'mean';
  /** Draws what a stochastic data term needs for a minibatch of n points (bMC, uPS); absent when deterministic. */
  prepare?(n: number, rng: Rng): void;
  /** ℓ_i at (μ_i, v_i) for label y of the minibatch's point `index`, with its derivatives. */
  pointLoss(y: number, mu: number, v: number, index: number, gradient: PointLossGradient): number;
}
