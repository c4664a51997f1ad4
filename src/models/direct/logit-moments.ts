import type { DirectLogitState } from './logit-state.js';
import type { DirectLogitWorkspace } from './logit-workspace.js';
import { softmaxRows } from './softmax-rows.js';

/**
 * q(w_j = w̄_jm) at the state's logits with E_q[w_j] and Var_q(w_j), computed into the workspace once
 * per state; for a mixture (r > 1), per component too (into `components`), and the marginals Σ_k π_k q_k with their moments (the
 * variance by total variance over the components).
 */
export function directLogitMoments(state: DirectLogitState, workspace: DirectLogitWorkspace): DirectLogitWorkspace {
  if (workspace.current) return workspace;
  const { b, mbar, support } = state.grid;
  const { q, logQ, mean, variance, components } = workspace;
  const r = state.settings.components;
  if (r === 1) {
    softmaxRows(state.logits, 0, b, mbar, q, logQ);
    for (let j = 0; j < b; j++) {
      let s = 0;
      let s2 = 0;
      for (let m = 0; m < mbar; m++) { const k = j * mbar + m; s += q[k] * support[k]; s2 += q[k] * support[k] * support[k]; }
      mean[j] = s;
      variance[j] = Math.max(0, s2 - s * s);
    }
  } else {
    const { probs, weights, means, variances } = components;
    const bm = b * mbar;
    const scratch = workspace.mixture!;
    softmaxRows(state.logits, 0, r * b, mbar, probs, scratch.logQ);
    softmaxRows(state.logits, r * bm, 1, r, weights, scratch.logWeights);
    q.fill(0);
    mean.fill(0);
    variance.fill(0);
    for (let k = 0; k < r; k++) {
      for (let j = 0; j < b; j++) {
        let s = 0;
        let s2 = 0;
        for (let m = 0; m < mbar; m++) {
          const i = j * mbar + m;
          const p = probs[k * bm + i];
          q[i] += weights[k] * p;
          s += p * support[i];
          s2 += p * support[i] * support[i];
        }
        means[k * b + j] = s;
        variances[k * b + j] = Math.max(0, s2 - s * s);
        mean[j] += weights[k] * s;
        variance[j] += weights[k] * s2;
      }
    }
    for (let j = 0; j < b; j++) variance[j] = Math.max(0, variance[j] - mean[j] * mean[j]);
    for (let i = 0; i < bm; i++) logQ[i] = Math.log(q[i]);
  }
  workspace.current = true;
  return workspace;
}
