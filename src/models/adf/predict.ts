import { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { PoissonLogNormalPredictive } from '../../core/predictive/poisson-log-normal-predictive.js';
import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import { normalCdf } from '../../special/normal-cdf.js';
import { sigmoid } from '../../special/sigmoid.js';
import { logitProbability } from './logit-probability.js';
import { logitTiltFor } from './logit-tilt-for.js';
import type { AdfState } from './state.js';
import { WIDE_PROJECTION } from './wide-projection.js';
import type { AdfWorkspace } from './workspace.js';

/**
 * The predictive of the label of x under q: f = xᵀβ ~ N(μ, s²); p(y = 1 | x) = E[σ(f)] from the
 * record's tilt ({@link logitTiltFor}: the series or a mode-centred rule; logit, 0 < s² ≤ 25; kept with V·x, μ and s² for an update
 * with this row that follows) or the model's Gauss–Hermite rule under N(μ, s²) (a wider
 * projection), or Φ(μ/√(1 + s²)) exactly (probit), carrying μ and s² as the latent score; for
 * `poisson` the Poisson–log-normal count with mean e^{μ + s²/2}.
 */
export function predictAdfRow(state: AdfState, workspace: AdfWorkspace, x: Float64Array, offset: number): BernoulliPredictive | PoissonLogNormalPredictive {
  const d = state.dim;
  const p = state.posterior;
  const predicted = workspace.predicted;
  gemv(p.V, d, d, x, predicted.vx, 1, 0, offset);
  const variance = dot(predicted.vx, x, d, 0, offset);
  const mu = dot(p.w, x, d, 0, offset);
  for (let i = 0; i < d; i++) predicted.x[i] = x[offset + i];
  predicted.mu = mu;
  predicted.s2 = variance;
  predicted.valid = true;
  predicted.hasTilt = state.link === 'logit' && variance > 0 && variance <= WIDE_PROJECTION;
  const s2 = Math.max(0, variance);
  if (state.link === 'poisson') return new PoissonLogNormalPredictive(mu, s2);
  if (state.link === 'probit') return new BernoulliPredictive(normalCdf(mu / Math.sqrt(1 + s2)), mu, s2, 'probit');
  if (predicted.hasTilt) return new BernoulliPredictive(logitProbability(logitTiltFor(predicted.tilt, mu, s2, workspace.logitRules)), mu, s2);
  if (s2 === 0) return new BernoulliPredictive(sigmoid(mu), mu, s2);
  const { nodes, logWeights } = workspace.quadrature;
  const scale = Math.sqrt(2 * s2);
  let prob = 0;
  for (let i = 0; i < nodes.length; i++) prob += Math.exp(logWeights[i]) * sigmoid(mu + scale * nodes[i]);
  return new BernoulliPredictive(Math.min(1, prob), mu, s2);
}
