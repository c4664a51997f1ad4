import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import { resolveGaussianPrior } from '../../gaussian/resolve-gaussian-prior.js';
import type { ForgettingBank } from '../../forgetting/forgetting-bank.js';
import { DEFAULT_ADF_WINDOW, type AdfOptions } from './options.js';
import { emptySiteWindow, type SiteWindow } from './site-window.js';
import { stableShape } from '../../core/stable-shape.js';

/** The likelihood p(y | f) of a record: Bernoulli σ(yf) (`logit`) or Φ(yf) (`probit`), y = ±1, or `poisson`, Poisson(y; eᶠ). */
export type AdfLink = 'logit' | 'probit' | 'poisson';

/** q(β) = N(w, V) (V full, row-major d×d) with ln|V|, as assumed density filtering keeps it. */
export interface AdfPosterior {
  readonly w: Float64Array;
  readonly V: Float64Array;
  logDetV: number;
}

/**
 * State of an ADF learner (Opper 1998, online Bayesian learning; Minka 2001 §3.1): the Gaussian
 * q(β) after every record so far, the prior N(m₀, Σ₀) it started from and the EP sites of the most
 * recent records (§3.2), which later records revisit.
 */
export interface AdfState {
  readonly dim: number;
  readonly link: AdfLink;
  readonly quadratureNodes: number;
  readonly priorMean: Float64Array;
  readonly priorCovariance: Float64Array;
  readonly posterior: AdfPosterior;
  readonly sites: SiteWindow;
  records: number;
  /** Adaptive forgetting: the other candidates' posteriors and their evidence (undefined when off; a member's own is undefined). */
  forgetting: ForgettingBank<AdfState> | undefined;
}

/** q(β) = the prior, no records, no adaptive forgetting (the family adds it); a bad option value or prior throws `ConfigError`. */
export function createAdfState(dim: number, options: AdfOptions, link: AdfLink): AdfState {
  const quadratureNodes = optionChecks.positiveInteger('quadratureNodes', options.quadratureNodes, 32);
  if (quadratureNodes > 360) throw new ConfigError('must be at most 360', { field: 'quadratureNodes', value: quadratureNodes });
  const window = optionChecks.nonNegativeInteger('window', options.window, DEFAULT_ADF_WINDOW);
  const revisits = optionChecks.nonNegativeInteger('revisits', options.revisits, 1);
  const prior = resolveGaussianPrior(dim, options.prior, 1);
  return stableShape({
    dim, link, quadratureNodes, priorMean: prior.mean, priorCovariance: prior.covariance, records: 0,
    posterior: stableShape({ w: prior.mean.slice(), V: prior.covariance.slice(), logDetV: prior.logDetCovariance }, ['logDetV']),
    sites: emptySiteWindow(dim, window, window === 0 ? 0 : revisits), forgetting: undefined,
  });
}
