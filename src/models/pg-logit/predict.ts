import { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { dot } from '../../linalg/dot.js';
import { solveLower } from '../../linalg/solve-lower.js';
import { sigmoid } from '../../special/sigmoid.js';
import { expectedSigmoid } from './expected-sigmoid.js';

/** How p(y = 1 | x) is computed from the logit's Gaussian N(m, v): exact E[σ(η)], or the probit approximation. */
export type PgLogitPredictor = 'exact' | 'probit';

/**
 * Predictive distribution of one record's label under q(β) = N(μ, Σ), Σ = (LLᵀ)⁻¹: the logit
 * η = xᵀβ is N(m, v) with m = xᵀμ and v = ‖L⁻¹x‖² (one triangular solve, no inverse). `exact` gives
 * E[σ(η)] by quadrature ({@link expectedSigmoid}); `probit` gives σ(m/√(1 + πv/8)) (MacKay 1992).
 * The predictive carries m and v (the logit's predictive variance) for credible intervals.
 * `work` (length d) is scratch.
 */
export function predictPgLogit(factor: Float64Array, mean: Float64Array, d: number, x: Float64Array, offset: number, predictor: PgLogitPredictor, work: Float64Array): BernoulliPredictive {
  for (let j = 0; j < d; j++) work[j] = x[offset + j];
  solveLower(factor, d, work, work);
  const v = dot(work, work, d);
  const m = dot(mean, x, d, 0, offset);
  const prob = predictor === 'exact' ? expectedSigmoid(m, v) : sigmoid(m / Math.sqrt(1 + (Math.PI * v) / 8));
  return new BernoulliPredictive(prob, m, v);
}
