import type { DirectLogitState } from './logit-state.js';
import type { DirectLogitWorkspace } from './logit-workspace.js';
import { softmaxRows } from './softmax-rows.js';

/** q(w_j = w̄_jm) at the state's logits with E_q[w_j] and Var_q(w_j), computed into the workspace once per state. */
export function directLogitMoments(state: DirectLogitState, workspace: DirectLogitWorkspace): DirectLogitWorkspace {
  if (workspace.current) return workspace;
  const { b, mbar, support } = state.grid;
  const { q, logQ, mean, variance } = workspace;
  softmaxRows(state.logits, 0, b, mbar, q, logQ);
  for (let j = 0; j < b; j++) {
    let s = 0;
    let s2 = 0;
    for (let m = 0; m < mbar; m++) { const k = j * mbar + m; s += q[k] * support[k]; s2 += q[k] * support[k] * support[k]; }
    mean[j] = s;
    variance[j] = Math.max(0, s2 - s * s);
  }
  workspace.current = true;
  return workspace;
}
