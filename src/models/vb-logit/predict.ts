import { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { dot } from '../../linalg/dot.js';
import type { GaussianPosterior } from '../../gaussian/gaussian-posterior.js';
import { JaakkolaJordanRow } from '../../likelihoods/jaakkola-jordan-row.js';
import { vbLogitRowProbability, type XiIterationSettings } from './row-probability.js';

/**
 * The predictive of a binary label from the variational lower bound ({@link vbLogitRowProbability}),
 * carrying the logit's posterior mean xᵀw and variance xᵀVx for credible intervals. `vx` (length d)
 * and `row` are scratch space.
 */
export function predictVbLogitRow(posterior: GaussianPosterior, d: number, x: Float64Array, offset: number, settings: XiIterationSettings,
  vx: Float64Array = new Float64Array(d), row: JaakkolaJordanRow = new JaakkolaJordanRow()): BernoulliPredictive {
  const prob = vbLogitRowProbability(posterior, d, x, offset, settings, vx, row);
  return new BernoulliPredictive(prob, dot(posterior.w, x, d, 0, offset), row.c);
}
