import type { GaussianPriorOptions } from '../../gaussian/gaussian-prior-options.js';
import { resolveGaussianPrior } from '../../gaussian/resolve-gaussian-prior.js';
import { gemv } from '../../linalg/gemv.js';
import type { PgLogitPrior } from './prior.js';

/** Default prior N(0, 10·I), the paper's Figure 1 setting (Durante & Rigon §3.2). */
const DEFAULT_PRIOR_VARIANCE = 10;

/** The prior of a pg-logit model: the form the updates use, plus Σ₀ itself (so `emptyLike` rebuilds the prior bit for bit). */
export interface ResolvedPgLogitPrior extends PgLogitPrior {
  /** Σ₀ (d×d, row-major). */
  readonly covariance: Float64Array;
}

/**
 * The prior N(μ₀, Σ₀) from the `prior` option (checked by {@link resolveGaussianPrior}, one O(d³)
 * factorisation; default N(0, 10·I)) as μ₀, Σ₀, Σ₀⁻¹, Σ₀⁻¹μ₀ and ln|Σ₀⁻¹|.
 */
export function resolvePgLogitPrior(d: number, options?: GaussianPriorOptions): ResolvedPgLogitPrior {
  const prior = resolveGaussianPrior(d, options, DEFAULT_PRIOR_VARIANCE);
  const shift = new Float64Array(d);
  gemv(prior.precision, d, d, prior.mean, shift);
  return { mean: prior.mean, covariance: prior.covariance, precision: prior.precision, shift, logdetPrecision: -prior.logDetCovariance };
}
