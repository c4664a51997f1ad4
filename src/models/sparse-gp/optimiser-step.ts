import { InputError } from '../../core/input-error.js';
import { setSquareLossMean } from './square-loss-mean.js';
import type { SparseGpState } from './state.js';
import { sparseGpParameters, type SparseGpWorkspace } from './workspace.js';

/**
 * One Adam step on the minibatch (x, y) of n rows with the data term scaled by `scale` (N/B): the
 * objective Σ_i scale·ℓ_i + β·R and its gradient in every free parameter group, packed into θ's
 * layout (the square-loss DLM first sets m to its closed-form minimiser and moves only the
 * hyperparameters). Returns the objective before the step.
 */
export function sparseGpOptimiserStep(state: SparseGpState, workspace: SparseGpWorkspace, x: Float64Array, y: Float64Array, n: number, scale: number): number {
  const { layout, theta, options: o } = state;
  const { objective, evaluator, gradient: g, gradTheta: gt } = workspace;
  objective.prepare?.(n, state.rng);
  let p = sparseGpParameters(state, workspace);
  if (o.objective === 'sq-dlm') {
    setSquareLossMean(state, workspace, p, x, y, n, scale);
    p = sparseGpParameters(state, workspace);
  }
  const value = evaluator.evaluate(p, x, y, n, objective, scale, g, workspace.hyperFree);
  if (!Number.isFinite(value)) throw new InputError('the objective is not finite at the current parameters; lower learningRate or rescale the data', { field: 'objective', value });
  gt.fill(0);
  if (o.objective !== 'sq-dlm') {
    gt.set(g.m, 0);
    layout.packLGradient(g.L, workspace.fullL, gt);
  }
  if (workspace.hyperFree) {
    if (!o.fixed.includes('kernel')) gt.set(g.kernel, layout.kernel);
    if (workspace.learnsNoise) gt[layout.noise] = g.logNoise;
    if (o.mean === 'constant' && !o.fixed.includes('mean')) gt[layout.mean] = g.meanConstant;
    if (!o.fixed.includes('Z')) gt.set(g.Z, layout.z);
  }
  state.adam.step(theta, gt);
  for (let k = 0; k < o.M; k++) if (!Number.isFinite(theta[k])) throw new InputError('an optimiser step left a non-finite parameter; lower learningRate', { field: 'm', value: theta[k] });
  state.steps += 1;
  state.lastObjective = value;
  return value;
}
