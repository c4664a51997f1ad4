import { sparseGpOptimiserStep } from './optimiser-step.js';
import { initialiseSparseGp, type SparseGpState } from './state.js';
import { StoppingRule } from './stopping-rule.js';
import type { SparseGpWorkspace } from './workspace.js';

/** Settings of {@link fitSparseGp}. */
export interface SparseGpFitSettings {
  /** Minibatch size B (default: all n rows). */
  readonly batchSize?: number;
  /** Adam steps at most (default 5000). */
  readonly maxIterations?: number;
  /** Window of the stopping rule (default 50). */
  readonly window?: number;
  /** Spread of the per-record objective over the window that stops the fit (default 1e-4). */
  readonly tolerance?: number;
}

/**
 * Batch training on (x, y) (n checked rows): minibatches of B rows in file order, cycling, one Adam
 * step each with the n/B scaling, until the stopping rule holds on the per-record objective
 * (objective/n, as GPyTorch scales it) or `maxIterations` steps. The records count once.
 */
export function fitSparseGp(state: SparseGpState, workspace: SparseGpWorkspace, x: Float64Array, y: Float64Array, n: number, settings: SparseGpFitSettings): { iterations: number; converged: boolean } {
  const d = state.dim;
  const batchSize = Math.min(n, settings.batchSize ?? n);
  const rule = new StoppingRule(settings.window ?? 50, settings.tolerance ?? 1e-4);
  const maxIterations = settings.maxIterations ?? 5000;
  let iterations = 0;
  let converged = false;
  if (!state.initialised) initialiseSparseGp(state, workspace.kernel, x, n);
  let start = 0;
  while (iterations < maxIterations && !converged) {
    const size = Math.min(batchSize, n - start);
    const value = sparseGpOptimiserStep(state, workspace, x.subarray(start * d, (start + size) * d), y.subarray(start, start + size), size, n / size);
    iterations += 1;
    converged = rule.push(value / n);
    start = start + size >= n ? 0 : start + size;
  }
  state.records += n;
  return { iterations, converged };
}
