import type { Predictive } from '../../core/predictive.js';
import { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { GaussianPredictive } from '../../core/predictive/gaussian-predictive.js';
import { normalCdf } from '../../special/normal-cdf.js';
import { PoissonLogNormalPredictive } from '../../core/predictive/poisson-log-normal-predictive.js';
import type { SparseGpState } from './state.js';
import type { SparseGpWorkspace } from './workspace.js';

/** The predictive distribution of y given the latent marginal N(mu, v): Gaussian (noise added), Bernoulli, or Poisson–log-normal. */
export function sparseGpLatentPredictive(state: SparseGpState, workspace: SparseGpWorkspace, mu: number, v: number): Predictive {
  const name = state.options.likelihood;
  if (name === 'gaussian') return new GaussianPredictive(mu, v + Math.exp(state.theta[state.layout.noise]));
  if (name === 'bernoulli-probit') return new BernoulliPredictive(normalCdf(mu / Math.sqrt(1 + v)), mu, v, 'probit');
  if (name === 'bernoulli-logit') return new BernoulliPredictive(Math.exp(workspace.likelihood.logMarginal(1, mu, v)), mu, v);
  return new PoissonLogNormalPredictive(mu, v);
}
