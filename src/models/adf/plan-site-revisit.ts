import { dot } from '../../linalg/dot.js';
import { recordTiltedMoments } from './record-tilted-moments.js';
import type { SiteRevisit } from './site-revisit.js';
import type { AdfState } from './state.js';
import type { AdfWorkspace } from './workspace.js';

/**
 * One EP step on a site (Minka 2001 §3.2, steps (a)–(c)), computed without writing anything: the
 * site's record has features `x[offset .. offset+d)`, label `y`, weight `weight` and site (τ, h);
 * under q with mean `w` and V·x = `vx`, f = xᵀβ ~ N(μ, s²), the cavity is N(μ_c, s_c²),
 * s_c² = s²/(1 − τs²), μ_c = (μ − s²h)/(1 − τs²); its tilted moments α, ν give the new site
 * τ′ = ν/(1 − νs_c²), h′ = (α + νμ_c)/(1 − νs_c²), and q takes the difference Δτ, Δh as a rank-one
 * change: V ← V − Δτ/g·(Vx)(Vx)ᵀ, w ← w + (Δh − Δτμ)/g·Vx, ln|V| ← ln|V| − ln g, g = 1 + Δτs².
 * Returns false for a site whose cavity or update is not proper (a non-positive 1 − τs², 1 − νs_c²
 * or g, or a non-finite moment): the revisit is a refinement, and the site and q stay as they are.
 * Otherwise the change is in `out`. O(d), nothing allocated.
 */
export function planSiteRevisit(out: SiteRevisit, state: AdfState, workspace: AdfWorkspace, x: Float64Array, offset: number, y: number, weight: number, tau: number, h: number, w: Float64Array, vx: Float64Array): boolean {
  const d = state.dim;
  const s2 = dot(vx, x, d, 0, offset);
  const mu = dot(w, x, d, 0, offset);
  const keep = 1 - tau * s2;
  if (!(keep > 0)) return false;
  const cavityVariance = s2 / keep;
  const cavityMean = (mu - s2 * h) / keep;
  const moments = recordTiltedMoments(state, workspace, cavityMean, cavityVariance, y, weight);
  const shrink = 1 - moments.nu * cavityVariance;
  const newPrecision = moments.nu / shrink;
  const newShift = (moments.alpha + moments.nu * cavityMean) / shrink;
  const deltaPrecision = newPrecision - tau;
  const deltaShift = newShift - h;
  const g = 1 + deltaPrecision * s2;
  if (!(shrink > 0) || !(g > 0) || !Number.isFinite(newShift) || !Number.isFinite(g)) return false;
  out.precision = newPrecision;
  out.shift = newShift;
  out.step = (deltaShift - deltaPrecision * mu) / g;
  out.logG = Math.log(g);
  out.coefficient = -deltaPrecision / g;
  return true;
}
