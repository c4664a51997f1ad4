import type { PointLossGradient, SparseGpObjective } from './point-loss.js';

/**
 * Square-loss DLM (Wei, Sheth & Khardon 2021, App. C, the paper's form): ½Σ_i (μ_i − y_i)² + ½β·mᵀKuu⁻¹m.
 * It depends on m and the kernel only (not on L or the noise); its minimiser in m is closed form
 * ({@link squareLossMinimiser}). The authors' code minimises Σ(μ − y)² + β_code·KL: β = β_code/2.
 */
export class SquareLossDlmObjective implements SparseGpObjective {
  readonly id = 'sq-dlm';
  readonly regulariser = 'mean';

  pointLoss(y: number, mu: number, _v: number, _index: number, gradient: PointLossGradient): number {
    const r = mu - y;
    gradient.dm = r;
    gradient.dv = 0;
    gradient.dLogNoise = 0;
    return 0.5 * r * r;
  }
}
