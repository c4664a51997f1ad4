import type { ResolvedGaussianPrior } from '../../gaussian/resolve-gaussian-prior.js';
import { choleskyInverse } from '../../linalg/cholesky-inverse.js';
import { logDetCholesky } from '../../linalg/log-det-cholesky.js';

/** The prior N(m₀, S₀) as the KL term (eq. 10) reads it: m₀, P₀ = S₀⁻¹ and ln|S₀| (a resolved prior is one). */
export type GaussianPrior = Pick<ResolvedGaussianPrior, 'mean' | 'precision' | 'logDetCovariance'>;

/**
 * The {@link GaussianPrior} N(mean, LLᵀ) from its lower Cholesky factor (row-major d×d, positive
 * diagonal): the model's prior as its state keeps it, and, in streaming VB, the current q as the
 * prior of the next batch. O(d³).
 */
export function gaussianPriorFromFactor(mean: Float64Array, factor: Float64Array, d: number): GaussianPrior {
  const precision = new Float64Array(d * d);
  choleskyInverse(factor, d, precision);
  return { mean: mean.slice(), precision, logDetCovariance: logDetCholesky(factor, d) };
}
