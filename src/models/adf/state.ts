import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import { resolveGaussianPrior } from '../../gaussian/resolve-gaussian-prior.js';
import type { AdfOptions } from './options.js';

/** The link of the Bernoulli likelihood p(y | f) = σ(yf) (`logit`) or Φ(yf) (`probit`), y = ±1. */
export type AdfLink = 'logit' | 'probit';

/** q(β) = N(w, V) (V full, row-major d×d) with ln|V|, as assumed density filtering keeps it. */
export interface AdfPosterior {
  readonly w: Float64Array;
  readonly V: Float64Array;
  logDetV: number;
}

/**
 * State of an ADF learner (Opper 1998, online Bayesian learning; Minka 2001 §3.1): the Gaussian
 * q(β) after every record so far, and the prior N(m₀, Σ₀) it started from.
 */
export interface AdfState {
  readonly dim: number;
  readonly link: AdfLink;
  readonly quadratureNodes: number;
  readonly priorMean: Float64Array;
  readonly priorCovariance: Float64Array;
  readonly posterior: AdfPosterior;
  records: number;
}

/** q(β) = the prior, no records; a bad option value or prior throws `ConfigError`. */
export function createAdfState(dim: number, options: AdfOptions, link: AdfLink): AdfState {
  const quadratureNodes = optionChecks.positiveInteger('quadratureNodes', options.quadratureNodes, 32);
  if (quadratureNodes > 360) throw new ConfigError('must be at most 360', { field: 'quadratureNodes', value: quadratureNodes });
  const prior = resolveGaussianPrior(dim, options.prior, 1);
  return {
    dim, link, quadratureNodes, priorMean: prior.mean, priorCovariance: prior.covariance, records: 0,
    posterior: { w: prior.mean.slice(), V: prior.covariance.slice(), logDetV: prior.logDetCovariance },
  };
}
