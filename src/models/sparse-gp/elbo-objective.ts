import type { GaussianExpectationLikelihood, MeanVarianceGradient } from '../../likelihoods/likelihood.js';
import type { PointLossGradient, SparseGpObjective } from './point-loss.js';

/**
 * Negated (β-)ELBO of SVGP (Hensman et al. 2015; Wei, Sheth & Khardon 2021, eq. 3):
 * Σ_i −E_{q(f_i)}[log p(y_i | f_i)] + β·KL(q(u) ‖ p(u)); β = 1 is the ELBO, β ≠ 1 the β-ELBO.
 */
export class ElboObjective implements SparseGpObjective {
  readonly id = 'elbo';
  readonly regulariser = 'kl';
  private readonly partial: MeanVarianceGradient = { dm: 0, dv: 0 };

  constructor(readonly likelihood: GaussianExpectationLikelihood) {}

  pointLoss(y: number, mu: number, v: number, _index: number, gradient: PointLossGradient): number {
    const value = this.likelihood.expectedLogProb(y, mu, v, this.partial);
    gradient.dm = -this.partial.dm;
    gradient.dv = -this.partial.dv;
    const noise = this.likelihood.expectedLogProbNoiseGradient?.(y, mu, v);
    gradient.dLogNoise = noise === undefined ? 0 : -noise;
    return -value;
  }
}
