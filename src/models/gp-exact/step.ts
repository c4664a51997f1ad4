import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { minimizeLbfgs } from '../../optim/lbfgs.js';
import { logMarginalLikelihood } from './log-marginal-likelihood.js';
import type { GpExactState } from './state.js';
import { setGpExactKernel, type GpExactWorkspace } from './workspace.js';

/**
 * Appends a checked batch to the records and refits the free hyperparameters by L-BFGS on
 * −log p(y | X, θ) (Rasmussen & Williams 2006, eq. 5.8, gradient eq. 5.9) from their current values;
 * a θ at which K + σ²I cannot be factorised counts as +∞. O(n³) per objective evaluation.
 */
export function gpExactStep(state: GpExactState, batch: Batch, workspace: GpExactWorkspace): UpdateStats {
  const d = state.dim;
  const n = state.records + batch.n;
  const x = new Float64Array(n * d);
  x.set(state.x);
  x.set(batch.x.subarray(0, batch.n * d), state.records * d);
  const y = new Float64Array(n);
  y.set(state.y);
  y.set(batch.y.subarray(0, batch.n), state.records);
  const { kernel } = workspace;
  let params = state.params;
  let iterations = 0;
  if (!state.fixedKernel || !state.fixedNoise) {
    const result = minimizeLbfgs((theta, g) => {
      let value: number;
      try {
        value = -logMarginalLikelihood(kernel, setGpExactKernel(workspace, theta), x, y, n, g);
      } catch {
        g.fill(0);
        return Infinity;
      }
      for (let k = 0; k < g.length; k++) g[k] = -g[k];
      if (state.fixedKernel) g.fill(0, 0, kernel.size);
      if (state.fixedNoise) g[kernel.size] = 0;
      return value;
    }, params, { maxIterations: state.maxIterations, relativeTolerance: 1e-12, gradientTolerance: 1e-7 });
    params = result.x;
    iterations = result.iterations;
  }
  const logMarginal = logMarginalLikelihood(kernel, setGpExactKernel(workspace, params), x, y, n);
  state.params = params.slice();
  state.x = x;
  state.y = y;
  state.records = n;
  state.logMarginal = logMarginal;
  return { records: batch.n, objective: logMarginal, iterations };
}
