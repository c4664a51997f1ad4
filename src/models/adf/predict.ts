import { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { PoissonLogNormalPredictive } from '../../core/predictive/poisson-log-normal-predictive.js';
import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import { normalCdf } from '../../special/normal-cdf.js';
import { sigmoid } from '../../special/sigmoid.js';
import type { AdfState } from './state.js';
import type { AdfWorkspace } from './workspace.js';

/**
 * The predictive of the label of x under q: f = xᵀβ ~ N(μ, s²); p(y = 1 | x) = E[σ(f)] by the
 * model's Gauss–Hermite rule (logit) or Φ(μ/√(1 + s²)) exactly (probit), carrying μ and s² as the
 * latent score; for `poisson` the Poisson–log-normal count with mean e^{μ + s²/2}.
 */
export function predictAdfRow(state: AdfState, workspace: AdfWorkspace, x: Float64Array, offset: number): BernoulliPredictive | PoissonLogNormalPredictive {
  const d = state.dim;
  const p = state.posterior;
  gemv(p.V, d, d, x, workspace.vx, 1, 0, offset);
  const s2 = Math.max(0, dot(workspace.vx, x, d, 0, offset));
  const mu = dot(p.w, x, d, 0, offset);
  if (state.link === 'poisson') return new PoissonLogNormalPredictive(mu, s2);
  if (state.link === 'probit') return new BernoulliPredictive(normalCdf(mu / Math.sqrt(1 + s2)), mu, s2, 'probit');
  const { nodes, logWeights } = workspace.quadrature;
  const scale = Math.sqrt(2 * s2);
  let prob = 0;
  for (let i = 0; i < nodes.length; i++) prob += Math.exp(logWeights[i]) * sigmoid(mu + scale * nodes[i]);
  return new BernoulliPredictive(Math.min(1, prob), mu, s2);
}
