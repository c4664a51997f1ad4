import type { DirectFitDiagnostics } from './state.js';
import type { DirectBnnPosterior } from './bnn-posterior.js';
import type { DirectBnnState } from './bnn-state.js';
import type { DirectBnnWorkspace } from './bnn-workspace.js';
import { zeroAtomMass } from './zero-atom-mass.js';

/** The posterior at `logits` (every array a copy). */
export function evaluateDirectBnn(state: DirectBnnState, workspace: DirectBnnWorkspace, logits: Float64Array, diagnostics: DirectFitDiagnostics): DirectBnnPosterior {
  const e = workspace.elbo;
  const elbo = e.evaluate(logits);
  const b = state.shape.b;
  const mean = e.moments.slice(0, b);
  const variance = new Float64Array(b);
  for (let j = 0; j < b; j++) variance[j] = Math.max(0, e.moments[b + j] - mean[j] * mean[j]);
  return {
    logits: logits.slice(), elbo, probs: e.q.slice(), noiseProbs: e.noiseQ.slice(), mean, variance, moments: e.moments.slice(),
    expectedNoise: e.expectedNoise, sparsity: zeroAtomMass(e.q, state.grid.support, b),
    iterations: diagnostics.iterations, converged: diagnostics.converged, startElbos: [...diagnostics.startElbos],
  };
}
