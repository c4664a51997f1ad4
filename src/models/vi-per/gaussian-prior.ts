import { cholesky } from '../../linalg/cholesky.js';
import { choleskyInverse } from '../../linalg/cholesky-inverse.js';

/** A Gaussian N(mean, S) as the KL term needs it: the mean, P = S⁻¹, log det S and S's lower Cholesky factor. */
export interface GaussianPrior {
  readonly mean: Float64Array;
  readonly precision: Float64Array;
  readonly logDet: number;
  readonly factor: Float64Array;
}

/**
 * The {@link GaussianPrior} of N(mean, LLᵀ) from its lower Cholesky factor (row-major d×d, positive
 * diagonal) — how a posterior q becomes the prior of the next batch (streaming VB). O(d³).
 */
export function gaussianFromFactor(mean: Float64Array, factor: Float64Array, d: number): GaussianPrior {
  const precision = new Float64Array(d * d);
  choleskyInverse(factor, d, precision);
  let logDet = 0;
  for (let i = 0; i < d; i++) logDet += 2 * Math.log(factor[i * d + i]);
  return { mean: mean.slice(), precision, logDet, factor: factor.slice() };
}

/** The {@link GaussianPrior} of N(mean, covariance); a covariance that is not positive definite throws `NumericalError`. */
export function gaussianFromCovariance(mean: Float64Array, covariance: Float64Array, d: number): GaussianPrior {
  const factor = new Float64Array(d * d);
  cholesky(covariance, d, factor, { what: 'prior covariance', maxTries: 0 });
  return gaussianFromFactor(mean, factor, d);
}
