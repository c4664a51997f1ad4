import type { Rng } from '../../rng/rng.js';
import { sparseGpInducingPosterior } from './inducing-posterior.js';
import type { SparseGpState } from './state.js';
import type { SparseGpWorkspace } from './workspace.js';

/** A draw of u ~ q(u) at the inducing inputs (Thompson sampling), M values into `out`. */
export function sampleSparseGpInducing(state: SparseGpState, workspace: SparseGpWorkspace, rng: Rng, out: Float64Array = new Float64Array(state.options.M)): Float64Array {
  const M = state.options.M;
  const { mean, factor } = sparseGpInducingPosterior(state, workspace);
  const eps = new Float64Array(M);
  for (let a = 0; a < M; a++) eps[a] = rng.normal();
  for (let a = 0; a < M; a++) {
    let sum = mean[a];
    for (let b = 0; b <= a; b++) sum += factor[a * M + b] * eps[b];
    out[a] = sum;
  }
  return out;
}
