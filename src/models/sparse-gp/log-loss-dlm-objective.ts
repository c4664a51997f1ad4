import type { GaussianExpectationLikelihood, MeanVarianceGradient } from '../../likelihoods/likelihood.js';
import type { PointLossGradient, SparseGpObjective } from './point-loss.js';

/**
 * Log-loss DLM (Wei, Sheth & Khardon 2021, eq. 8): Σ_i −log E_{q(f_i)}[p(y_i | f_i)] + β·KL, the
 * data term through the likelihood's `logMarginal` (closed form for gaussian and probit,
 * Gauss–Hermite for poisson, whatever the likelihood offers for logit).
 */
export class LogLossDlmObjective implements SparseGpObjective {
  readonly id = 'dlm';
  readonly regulariser = 'kl';
  private readonly partial: MeanVarianceGradient = { dm: 0, dv: 0 };

  constructor(readonly likelihood: GaussianExpectationLikelihood) {}

  pointLoss(y: number, mu: number, v: number, _index: number, gradient: PointLossGradient): number {
    const value = this.likelihood.logMarginal(y, mu, v, this.partial);
    gradient.dm = -this.partial.dm;
    gradient.dv = -this.partial.dv;
    const noise = this.likelihood.logMarginalNoiseGradient?.(y, mu, v);
    gradient.dLogNoise = noise === undefined ? 0 : -noise;
    return -value;
  }
}
