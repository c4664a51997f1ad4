import { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import type { BernoulliLogitGaussHermite } from '../../likelihoods/bernoulli-logit-gauss-hermite.js';

/**
 * p(y = 1 | x) = E[σ(f)], f = xᵀβ ~ N(xᵀμ, ‖Lᵀx‖²), by Gauss–Hermite quadrature (exact up to the
 * rule's error), with the logit's mean and variance for credible intervals.
 */
export function predictGaussianLogit(mu: Float64Array, factor: Float64Array, d: number, x: Float64Array, offset: number,
  quadrature: BernoulliLogitGaussHermite): BernoulliPredictive {
  let mean = 0;
  let variance = 0;
  for (let b = 0; b < d; b++) {
    mean += mu[b] * x[offset + b];
    let sum = 0;
    for (let a = b; a < d; a++) sum += factor[a * d + b] * x[offset + a];
    variance += sum * sum;
  }
  return new BernoulliPredictive(Math.exp(quadrature.logMarginal(1, mean, variance)), mean, variance);
}
