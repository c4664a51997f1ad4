import type { SparseGpParameters } from './sparse-gp-parameters.js';
import { squareLossMinimiser } from './square-loss-minimiser.js';
import type { SparseGpState } from './state.js';
import type { SparseGpWorkspace } from './workspace.js';

/**
 * Square-loss DLM: m ← its closed-form minimiser on the minibatch (Wei, Sheth & Khardon 2021, App. C),
 * in the model's parameterisation (whitened: Lk⁻¹ times the unwhitened minimiser).
 */
export function setSquareLossMean(state: SparseGpState, workspace: SparseGpWorkspace, p: SparseGpParameters, x: Float64Array, y: Float64Array, n: number, scale: number): void {
  const M = state.options.M;
  const m = state.theta.subarray(0, M);
  squareLossMinimiser(p, x, y, n, scale, m);
  if (!p.whitened) return;
  const { conditional } = workspace.evaluator;
  conditional.factorKuu(p);
  const lk = conditional.lk;
  for (let a = 0; a < M; a++) {
    let sum = m[a];
    for (let b = 0; b < a; b++) sum -= lk[a * M + b] * m[b];
    m[a] = sum / lk[a * M + a];
  }
}
