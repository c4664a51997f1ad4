import { choleskyInverse } from '../../linalg/cholesky-inverse.js';
import { dot } from '../../linalg/dot.js';
import { logDetCholesky } from '../../linalg/log-det-cholesky.js';
import { solveLowerRowNorms } from '../../linalg/solve-lower-row-norms.js';
import { jaakkolaJordanExpectedBound } from '../../likelihoods/jaakkola-jordan-expected-bound.js';
import { jaakkolaJordanXi } from '../../likelihoods/jaakkola-jordan-xi.js';
import { priorElbo } from './prior-elbo.js';
import type { PgLogitPrior } from './prior.js';

/**
 * The exact ELBO of the Pólya-gamma augmented logistic model (Durante & Rigon eq. 2.3; equal to the
 * Jaakkola–Jordan bound) for q(β) = N(μ, Σ) given by Σ⁻¹'s Cholesky factor and μ, on n records
 * (labels ±1, optional weights), with the local parameters `xi` if given, else the optimal
 * ξᵢ = √(xᵢᵀΣxᵢ + (xᵢᵀμ)²). O(nd² + d³); for diagnostics and tests, not a hot path.
 */
export function pgLogitElbo(prior: PgLogitPrior, factor: Float64Array, mean: Float64Array, d: number, x: Float64Array, ySigned: Float64Array, n: number,
  xi?: ArrayLike<number>, weights?: Float64Array): number {
  const cov = new Float64Array(d * d);
  choleskyInverse(factor, d, cov);
  const v = new Float64Array(d);
  let elbo = priorElbo(d, mean, cov, -logDetCholesky(factor, d), prior, v);
  const variances = new Float64Array(n);
  solveLowerRowNorms(factor, d, x, n, variances, new Float64Array(8 * d));
  for (let r = 0; r < n; r++) {
    const variance = variances[r];
    const m = dot(mean, x, d, 0, r * d);
    const localXi = xi === undefined ? jaakkolaJordanXi(m, variance) : xi[r];
    elbo += (weights === undefined ? 1 : weights[r]) * jaakkolaJordanExpectedBound(0.5 * ySigned[r], m, variance, localXi);
  }
  return elbo;
}
