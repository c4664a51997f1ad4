import type { SparseGpState } from './state.js';
import { sparseGpParameters, type SparseGpWorkspace } from './workspace.js';

/** q(u) unwhitened: mean (M, the constant mean included), covariance (M×M) and its lower factor. */
export function sparseGpInducingPosterior(state: SparseGpState, workspace: SparseGpWorkspace): { mean: Float64Array; cov: Float64Array; factor: Float64Array } {
  const M = state.options.M;
  const mean = new Float64Array(M);
  const cov = new Float64Array(M * M);
  const factor = new Float64Array(M * M);
  const { conditional } = workspace.evaluator;
  conditional.inducingPosterior(sparseGpParameters(state, workspace), mean, cov);
  conditional.inducingFactor(factor);
  return { mean, cov, factor };
}
