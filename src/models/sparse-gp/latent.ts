import { InputError } from '../../core/input-error.js';
import type { SparseGpState } from './state.js';
import { sparseGpParameters, type SparseGpWorkspace } from './workspace.js';

/** Latent marginals q(f) = N(μ_i, v_i) at the n rows of x (row-major n×d); O(M³ + nM²). */
export function sparseGpLatent(state: SparseGpState, workspace: SparseGpWorkspace, x: Float64Array, n: number): { mean: Float64Array; variance: Float64Array } {
  if (!state.initialised) throw new InputError('the sparse GP has seen no data yet (Z is not set)', { field: 'Z' });
  const { conditional } = workspace.evaluator;
  conditional.marginals(sparseGpParameters(state, workspace), x, n);
  return { mean: conditional.mu.slice(0, n), variance: conditional.v.slice(0, n) };
}
