import { choleskyInverse } from '../../linalg/cholesky-inverse.js';
import { dot } from '../../linalg/dot.js';
import { gramAccumulate } from '../../linalg/gram-accumulate.js';
import { logDetCholesky } from '../../linalg/log-det-cholesky.js';
import { solveLowerRowNorms } from '../../linalg/solve-lower-row-norms.js';
import { jaakkolaJordanExpectedBound } from '../../likelihoods/jaakkola-jordan-expected-bound.js';
import { jaakkolaJordanXi } from '../../likelihoods/jaakkola-jordan-xi.js';
import { polyaGammaMean } from '../../special/polya-gamma-mean.js';
import { priorElbo } from './prior-elbo.js';
import type { PgLogitPrior } from './prior.js';
import { refreshMoments } from './refresh-moments.js';

/** Stopping rule of {@link pgLogitCavi}. */
export interface CaviStop {
  readonly tol: number;
  readonly relativeTol: boolean;
  readonly maxIter: number;
}

/** What {@link pgLogitCavi} returns: q(β) in natural and moment form, the ξ, and the ELBO trace. */
export interface CaviResult {
  /** λ₁ = Σ⁻¹μ. */
  readonly shift: Float64Array;
  /** −2λ₂ = Σ⁻¹. */
  readonly precision: Float64Array;
  readonly factor: Float64Array;
  readonly mean: Float64Array;
  readonly cov: Float64Array;
  readonly logdetCov: number;
  /** ξᵢ from the final q(β) (the local parameters of the last sweep). */
  readonly xi: Float64Array;
  /** The ξᵢ whose z̄ᵢ built the final −2λ₂ (those of the sweep before the last; the start ξ after one sweep). */
  readonly siteXi: Float64Array;
  readonly elbo: number;
  /** ELBO after each sweep. */
  readonly elboTrace: number[];
  readonly iterations: number;
  readonly converged: boolean;
}

/**
 * CAVI for logistic regression (Durante & Rigon Algorithm 2, eq. 3.1–3.3) on n records (row-major
 * x, labels ±1, optional weights) under the Gaussian prior `prior`. Starts at z̄ᵢ = ¼ (the ξ → 0
 * limit), or at the z̄ of `startXi` (a warm start: a replayed window's last ξ); each sweep sets
 * −2λ₂ = Σ₀⁻¹ + XᵀZ̄X (Cholesky factor, no inverse for the solves),
 * μ = (−2λ₂)⁻¹λ₁ with the constant λ₁ = Σ₀⁻¹μ₀ + Xᵀ(y − ½), then ξᵢ = √(xᵢᵀΣxᵢ + (xᵢᵀμ)²) and
 * z̄ᵢ = E[ωᵢ] = tanh(ξᵢ/2)/(2ξᵢ), and evaluates the exact ELBO of the augmented model (eq. 2.3, the
 * Jaakkola–Jordan bound with λ(ξ) = z̄/2). Stops from the second sweep on when |ΔELBO| < tol
 * (absolute, or relative to |ELBO|), or after maxIter sweeps. Pure: reads its inputs, returns fresh
 * arrays.
 */
export function pgLogitCavi(prior: PgLogitPrior, x: Float64Array, ySigned: Float64Array, n: number, d: number, stop: CaviStop, weights?: Float64Array, startXi?: Float64Array): CaviResult {
  const shift = prior.shift.slice();
  for (let r = 0; r < n; r++) {
    const scale = 0.5 * ySigned[r] * (weights === undefined ? 1 : weights[r]);
    for (let j = 0; j < d; j++) shift[j] += scale * x[r * d + j];
  }
  const rowScale = new Float64Array(n);
  for (let r = 0; r < n; r++) rowScale[r] = (startXi === undefined ? 0.25 : polyaGammaMean(startXi[r])) * (weights === undefined ? 1 : weights[r]);
  const precision = new Float64Array(d * d);
  const factor = new Float64Array(d * d);
  const mean = new Float64Array(d);
  const cov = new Float64Array(d * d);
  const v = new Float64Array(d);
  const work = new Float64Array(8 * d);
  const variances = new Float64Array(n);
  const xi = startXi === undefined ? new Float64Array(n) : startXi.slice(0, n);
  const siteXi = new Float64Array(n);
  const elboTrace: number[] = [];
  let logdetCov = 0;
  let converged = false;
  for (let t = 1; t <= stop.maxIter; t++) {
    siteXi.set(xi);
    precision.set(prior.precision);
    gramAccumulate(x, n, d, precision, 1, rowScale);
    refreshMoments(shift, precision, d, factor, mean);
    choleskyInverse(factor, d, cov);
    logdetCov = -logDetCholesky(factor, d);
    let elbo = priorElbo(d, mean, cov, logdetCov, prior, v);
    solveLowerRowNorms(factor, d, x, n, variances, work);
    for (let r = 0; r < n; r++) {
      const variance = variances[r];
      const m = dot(mean, x, d, 0, r * d);
      xi[r] = jaakkolaJordanXi(m, variance);
      const weight = weights === undefined ? 1 : weights[r];
      const zBar = polyaGammaMean(xi[r]);
      rowScale[r] = zBar * weight;
      elbo += weight * jaakkolaJordanExpectedBound(0.5 * ySigned[r], m, variance, xi[r], 0.5 * zBar);
    }
    const last = elboTrace.length > 0 ? elboTrace[elboTrace.length - 1] : Number.NaN;
    elboTrace.push(elbo);
    if (t >= 2 && Math.abs(elbo - last) < (stop.relativeTol ? stop.tol * Math.abs(elbo) : stop.tol)) {
      converged = true;
      break;
    }
  }
  return { shift, precision, factor, mean, cov, logdetCov, xi, siteXi, elbo: elboTrace[elboTrace.length - 1], elboTrace, iterations: elboTrace.length, converged };
}
