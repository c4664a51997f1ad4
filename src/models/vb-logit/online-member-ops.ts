import type { BankMemberOps } from '../../forgetting/forgetting-bank.js';
import { naturalShift, setNaturalParameters } from './online-natural-parameters.js';
import type { VbLogitOnlineState } from './online-state.js';

function copyPosterior(target: VbLogitOnlineState, source: VbLogitOnlineState): void {
  const into = target.posterior;
  const from = source.posterior;
  into.w.set(from.w);
  into.V.set(from.V);
  into.invV.set(from.invV);
  into.logDetV = from.logDetV;
  into.q = from.q;
  target.records = source.records;
}

/** A vb-logit-online state's own parts (q(w) and the record count; not its adaptive forgetting) as a forgetting-bank member. */
export const vbLogitOnlineMemberOps: BankMemberOps<VbLogitOnlineState> = {
  copy: copyPosterior,
  overwrite: copyPosterior,
  /** Power prior: V⁻¹ ← γV⁻¹ + (1 − γ)V₀⁻¹ and V⁻¹w ← γV⁻¹w, then V, w, ln|V| recomputed (O(d³)). */
  forget(state, factor) {
    const d = state.dim;
    const precision = state.posterior.invV.map((v) => v * factor);
    for (let i = 0; i < d; i++) precision[i * d + i] += (1 - factor) * state.priorPrecision;
    setNaturalParameters(state, precision, naturalShift(state).map((v) => v * factor));
  },
  /**
   * O(d): w, the scalars and the diagonals of V and V⁻¹. Both matrices are positive semi-definite and
   * change by rank-one terms, so |A_ij| ≤ √(A_ii·A_jj) and |u_i·u_j| ≤ max(u_i², u_j²): an off-diagonal
   * entry cannot overflow or turn NaN while every diagonal entry stays finite.
   */
  isFinite(state) {
    const { w, V, invV, logDetV, q } = state.posterior;
    const d = state.dim;
    if (!Number.isFinite(logDetV) || !Number.isFinite(q)) return false;
    for (let i = 0; i < d; i++) {
      if (!Number.isFinite(w[i]) || !Number.isFinite(V[i * d + i]) || !Number.isFinite(invV[i * d + i])) return false;
    }
    return true;
  },
};
