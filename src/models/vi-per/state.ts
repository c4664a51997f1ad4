import { resolveGaussianPrior } from '../../gaussian/resolve-gaussian-prior.js';
import type { BernoulliLogitMethod } from '../../likelihoods/bernoulli-logit.js';
import { Adam } from '../../optim/adam.js';
import { Rng } from '../../rng/rng.js';
import { packedLength } from './objective.js';
import type { CovarianceForm, ViPerOptions } from './options.js';
import { resolveViPerSettings, type ViPerSettings } from './settings.js';

/** What a vi-per model holds: q(β) = N(mu, LLᵀ), the original prior, and the SVI optimiser and generator. */
export interface ViPerState {
  readonly dim: number;
  readonly settings: ViPerSettings;
  /** The prior's mean and the lower Cholesky factor of its covariance. */
  readonly priorMean: Float64Array;
  readonly priorFactor: Float64Array;
  readonly mu: Float64Array;
  /** Lower Cholesky factor L of Σ (row-major d×d; diagonal for mean-field). */
  readonly factor: Float64Array;
  /**
   * `sda` replay: q_a = N(anchorMean, anchorFactor·anchorFactorᵀ), the Gaussian of every record
   * before the buffer (q as created while none has left it), and the buffer of the last `buffered`
   * records, oldest first: features (replay × d, row-major), labels as ±1 and weights (1 when none
   * given), preallocated to `settings.replay` records. q = the fit on the buffer with q_a as the prior.
   */
  readonly anchorMean: Float64Array;
  readonly anchorFactor: Float64Array;
  readonly bufferX: Float64Array;
  readonly bufferY: Float64Array;
  readonly bufferWeights: Float64Array;
  buffered: number;
  records: number;
  /** F at the end of the last update (NaN before any). */
  objective: number;
  iterations: number;
  /** SVI's Adam over the packed (μ, L) (no step taken until the first SVI update); under `natural` only its step count `t` is used, as the t of ρ_t. */
  readonly adam: Adam;
  /** Generator of the fresh Monte Carlo draws of each SVI step (`monte-carlo`), seeded by `seed`. */
  readonly rng: Rng;
}

/**
 * A model with no data: q = the prior N(m₀, S₀) (projected onto the diagonal, Σ = diag(1/(S₀⁻¹)ⱼⱼ),
 * for mean-field), `method` and `covariance` the family's defaults. A bad option value or prior
 * throws `ConfigError`.
 */
export function createViPerState(dim: number, options: ViPerOptions, method: BernoulliLogitMethod, covariance: CovarianceForm): ViPerState {
  const settings = resolveViPerSettings(options, method, covariance);
  const prior = resolveGaussianPrior(dim, options.prior, 1);
  const factor = prior.factor.slice();
  if (settings.covariance === 'diagonal') {
    factor.fill(0);
    for (let i = 0; i < dim; i++) factor[i * dim + i] = 1 / Math.sqrt(prior.precision[i * dim + i]);
  }
  return {
    dim, settings, priorMean: prior.mean, priorFactor: prior.factor, mu: prior.mean.slice(), factor,
    anchorMean: prior.mean.slice(), anchorFactor: factor.slice(), bufferX: new Float64Array(settings.replay * dim),
    bufferY: new Float64Array(settings.replay), bufferWeights: new Float64Array(settings.replay), buffered: 0,
    records: 0, objective: Number.NaN, iterations: 0,
    adam: new Adam(packedLength(dim, settings.covariance), { learningRate: settings.learningRate }), rng: Rng.fromSeed(settings.seed),
  };
}
