import { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { PoissonLogNormalPredictive } from '../../core/predictive/poisson-log-normal-predictive.js';
import { adfProbability } from './adf-probability.js';
import { projectAdfRow } from './project-adf-row.js';
import type { AdfState } from './state.js';
import type { AdfWorkspace } from './workspace.js';

/**
 * The predictive of the label of x under q: f = xᵀβ ~ N(μ, s²) ({@link projectAdfRow}, kept with
 * V·x, μ and s² for an update with this row that follows); for a binary label p(y = 1 | x) by
 * {@link adfProbability}, carrying μ and s² as the latent score; for `poisson` the Poisson–log-normal
 * count with mean e^{μ + s²/2}.
 */
export function predictAdfRow(state: AdfState, workspace: AdfWorkspace, x: Float64Array, offset: number): BernoulliPredictive | PoissonLogNormalPredictive {
  if (state.link === 'poisson') {
    projectAdfRow(state, workspace, x, offset);
    return new PoissonLogNormalPredictive(workspace.predicted.mu, Math.max(0, workspace.predicted.s2));
  }
  const prob = adfProbability(state, workspace, x, offset);
  const { mu } = workspace.predicted;
  const s2 = Math.max(0, workspace.predicted.s2);
  return state.link === 'probit' ? new BernoulliPredictive(prob, mu, s2, 'probit') : new BernoulliPredictive(prob, mu, s2);
}
