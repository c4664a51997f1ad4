import { dot } from '../../linalg/dot.js';
import { recordTiltedMoments } from './record-tilted-moments.js';
import type { AdfState } from './state.js';
import type { AdfWorkspace } from './workspace.js';

/**
 * One EP step on the site of window slot `slot` (Minka 2001 §3.2, steps (a)–(c)): with f = xᵀβ ~
 * N(μ, s²) under q and the site (τ, h), the cavity is N(μ_c, s_c²), s_c² = s²/(1 − τs²),
 * μ_c = (μ − s²h)/(1 − τs²); its tilted moments α, ν give the new site τ′ = ν/(1 − νs_c²),
 * h′ = (α + νμ_c)/(1 − νs_c²), and q takes the difference Δτ, Δh as a rank-one change:
 * V ← V − Δτ/g·(Vx)(Vx)ᵀ, w ← w + (Δh − Δτμ)/g·Vx, ln|V| ← ln|V| − ln g, g = 1 + Δτs².
 * A site whose cavity or update is not proper (a non-positive 1 − τs², 1 − νs_c² or g, or a
 * non-finite moment) is left as it is: the revisit is a refinement, and q stays what it was.
 * `vx` holds V·x of the slot's record; the site, w and ln|V| are updated here and the coefficient c of
 * V ← V + c·(Vx)(Vx)ᵀ, c = −Δτ/g, is returned for the caller to apply (0 when the site is left as it is),
 * so it can share a pass over V with another rank-one change. O(d), nothing allocated.
 */
export function revisitSite(state: AdfState, slot: number, workspace: AdfWorkspace, vx: Float64Array): number {
  const d = state.dim;
  const p = state.posterior;
  const sites = state.sites;
  const offset = slot * d;
  const s2 = dot(vx, sites.x, d, 0, offset);
  const mu = dot(p.w, sites.x, d, 0, offset);
  const tau = sites.precision[slot];
  const h = sites.shift[slot];
  const keep = 1 - tau * s2;
  if (!(keep > 0)) return 0;
  const cavityVariance = s2 / keep;
  const cavityMean = (mu - s2 * h) / keep;
  const moments = recordTiltedMoments(state, workspace, cavityMean, cavityVariance, sites.y[slot], sites.weight[slot]);
  const shrink = 1 - moments.nu * cavityVariance;
  const newPrecision = moments.nu / shrink;
  const newShift = (moments.alpha + moments.nu * cavityMean) / shrink;
  const deltaPrecision = newPrecision - tau;
  const deltaShift = newShift - h;
  const g = 1 + deltaPrecision * s2;
  if (!(shrink > 0) || !(g > 0) || !Number.isFinite(newShift) || !Number.isFinite(g)) return 0;
  const step = (deltaShift - deltaPrecision * mu) / g;
  for (let i = 0; i < d; i++) p.w[i] += step * vx[i];
  p.logDetV -= Math.log(g);
  sites.precision[slot] = newPrecision;
  sites.shift[slot] = newShift;
  return -deltaPrecision / g;
}
