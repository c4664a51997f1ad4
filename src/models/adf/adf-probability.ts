import { normalCdf } from '../../special/normal-cdf.js';
import { sigmoid } from '../../special/sigmoid.js';
import { logitProbability } from './logit-probability.js';
import { logitTiltFor } from './logit-tilt-for.js';
import { projectAdfRow } from './project-adf-row.js';
import type { AdfState } from './state.js';
import type { AdfWorkspace } from './workspace.js';

/**
 * p(y = 1 | x) of a binary ADF model (logit or probit link) for the record at `x[offset .. offset + dim)`,
 * after {@link projectAdfRow} (f = xᵀβ ~ N(μ, s²), kept in the workspace): E[σ(f)] from the record's tilt
 * ({@link logitTiltFor}: the series or a mode-centred rule; logit, 0 < s² ≤ 25) or the model's
 * Gauss–Hermite rule under N(μ, s²) (a wider projection), σ(μ) when s² = 0, or Φ(μ/√(1 + s²)) exactly (probit).
 */
export function adfProbability(state: AdfState, workspace: AdfWorkspace, x: Float64Array, offset: number): number {
  projectAdfRow(state, workspace, x, offset);
  const { mu, hasTilt } = workspace.predicted;
  const s2 = Math.max(0, workspace.predicted.s2);
  if (state.link === 'probit') return normalCdf(mu / Math.sqrt(1 + s2));
  if (hasTilt) return logitProbability(logitTiltFor(workspace.predicted.tilt, mu, s2, workspace.logitRules));
  if (s2 === 0) return sigmoid(mu);
  const { nodes, logWeights } = workspace.quadrature;
  const scale = Math.sqrt(2 * s2);
  let prob = 0;
  for (let i = 0; i < nodes.length; i++) prob += Math.exp(logWeights[i]) * sigmoid(mu + scale * nodes[i]);
  return Math.min(1, prob);
}
