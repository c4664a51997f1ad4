import { RbfKernel } from '../../kernels/rbf-kernel.js';
import { logMarginalLikelihood, type ExactGpFactor } from './log-marginal-likelihood.js';
import type { GpExactState } from './state.js';

/** What a gp-exact model computes with: its kernel (set from the hyperparameters before every use) and the factorised training covariance, cached until the state changes. */
export interface GpExactWorkspace {
  readonly kernel: RbfKernel;
  fitted: ExactGpFactor | undefined;
}

/** A workspace for this state's kernel type. */
export function gpExactWorkspace(state: GpExactState): GpExactWorkspace {
  return { kernel: new RbfKernel(state.dim, state.ard), fitted: undefined };
}

/** Sets the workspace's kernel to the log-hyperparameters `params` = [log s², log ℓ…, log σ²]; returns σ². */
export function setGpExactKernel(workspace: GpExactWorkspace, params: Float64Array): number {
  const { kernel } = workspace;
  kernel.params.set(params.subarray(0, kernel.size));
  return Math.exp(params[kernel.size]);
}

/** chol(K + σ²I) and α = (K + σ²I)⁻¹y at the current records and hyperparameters, cached in the workspace. */
export function gpExactFactor(state: GpExactState, workspace: GpExactWorkspace): ExactGpFactor {
  if (workspace.fitted === undefined) {
    const n = state.records;
    const fitted = { factor: new Float64Array(n * n), alpha: new Float64Array(n) };
    logMarginalLikelihood(workspace.kernel, setGpExactKernel(workspace, state.params), state.x, state.y, n, undefined, fitted);
    workspace.fitted = fitted;
  }
  return workspace.fitted;
}
