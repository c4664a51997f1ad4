import type { GaussianExpectationLikelihood } from './likelihood.js';

/**
 * A {@link GaussianExpectationLikelihood} that can also be evaluated at a point f, as the sampled
 * DLM estimators need: bMC (log p and ∂ log p/∂f at reparameterised draws) and the uPS rejection
 * sampler (the maximum of p(y | ·) and where it is attained; Wei, Sheth & Khardon 2021, App. A).
 */
export interface PointwiseLikelihood extends GaussianExpectationLikelihood {
  /** log p(y | f). */
  logDensity(y: number, f: number): number;
  /** ∂ log p(y | f) / ∂f. */
  logDensityDerivative(y: number, f: number): number;
  /** log max_f p(y | f). */
  logMaxDensity(y: number): number;
  /** argmax_f p(y | f) (±Infinity when p increases without bound toward one side, as the probit does). */
  mode(y: number): number;
}
