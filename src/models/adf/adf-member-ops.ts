import type { BankMemberOps } from '../../forgetting/forgetting-bank.js';
import { copySiteWindow } from './copy-site-window.js';
import { forgetAdf } from './forget.js';
import type { AdfState } from './state.js';

function copyPosterior(target: AdfState, source: AdfState): void {
  const w = target.posterior.w;
  for (let i = 0; i < w.length; i++) w[i] = source.posterior.w[i];
  target.posterior.V.set(source.posterior.V);
  target.posterior.logDetV = source.posterior.logDetV;
  target.records = source.records;
}

/**
 * An ADF state's own parts (q, the record count, the site window; not its adaptive forgetting) as a
 * forgetting-bank member. `copy` copies only the sites that changed between two versions of one
 * history; `overwrite` copies every filled site and sets `rescaled` past both windows' counts, so a
 * later backup copy between this state and an older version of it sees that everything changed.
 */
export const adfMemberOps: BankMemberOps<AdfState> = {
  copy(target, source) {
    copyPosterior(target, source);
    copySiteWindow(target.sites, source.sites);
  },
  overwrite(target, source) {
    copyPosterior(target, source);
    const into = target.sites;
    const from = source.sites;
    const rescaled = Math.max(into.rescaled, from.rescaled) + 1;
    into.x.set(from.x);
    into.y.set(from.y);
    into.weight.set(from.weight);
    into.precision.set(from.precision);
    into.shift.set(from.shift);
    into.count = from.count;
    into.head = from.head;
    into.cursor = from.cursor;
    into.written = from.written;
    into.rescaled = rescaled;
  },
  forget: forgetAdf,
  /**
   * O(d): w, V's diagonal and the scalars (V is positive definite and only changes by rank-one terms
   * that keep it so, so |V_ij| ≤ √(V_ii·V_jj)); sites are checked finite before they are written.
   */
  isFinite(state) {
    const { w, V, logDetV } = state.posterior;
    const d = state.dim;
    if (!Number.isFinite(logDetV)) return false;
    for (let i = 0; i < d; i++) {
      if (!Number.isFinite(w[i]) || !Number.isFinite(V[i * d + i])) return false;
    }
    return true;
  },
};
