import { planSiteRevisit } from './plan-site-revisit.js';
import type { AdfState } from './state.js';
import type { AdfWorkspace } from './workspace.js';

/**
 * One EP step on the site of window slot `slot` ({@link planSiteRevisit}), written: the site, w and
 * ln|V| are updated here and the coefficient c of V ← V + c·(Vx)(Vx)ᵀ is returned for the caller to
 * apply (0 when the site is left as it is), so it can share a pass over V with another rank-one
 * change. `vx` holds V·x of the slot's record. O(d), nothing allocated.
 */
export function revisitSite(state: AdfState, slot: number, workspace: AdfWorkspace, vx: Float64Array): number {
  const d = state.dim;
  const p = state.posterior;
  const sites = state.sites;
  const change = workspace.revisit;
  if (!planSiteRevisit(change, state, workspace, sites.x, slot * d, sites.y[slot], sites.weight[slot], sites.precision[slot], sites.shift[slot], p.w, vx)) return 0;
  for (let i = 0; i < d; i++) p.w[i] += change.step * vx[i];
  p.logDetV -= change.logG;
  sites.precision[slot] = change.precision;
  sites.shift[slot] = change.shift;
  return change.coefficient;
}
