import { NumericalError } from '../../core/numerical-error.js';
import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import { planSiteRevisit } from './plan-site-revisit.js';
import { recordTiltedMoments } from './record-tilted-moments.js';
import type { RecordPlan } from './record-plan.js';
import type { AdfState } from './state.js';
import { takePredictedRow } from './take-predicted-row.js';
import type { AdfWorkspace } from './workspace.js';

/**
 * Everything one record changes (features `x[offset .. offset+d)`, label y, weight), computed into
 * the workspace's {@link RecordPlan} without writing the state (Opper 1998, eq. 8–9): f = xᵀβ has
 * prior N(μ = xᵀw, s² = xᵀVx); with α, ν of the tilted distribution, w ← w + α·Vx,
 * V ← V − ν·(Vx)(Vx)ᵀ and ln|V| ← ln|V| + ln(1 − ν·s²) (determinant lemma); the record's site
 * τ = ν/(1 − νs²), h = (α + νμ)/(1 − νs²) (the Gaussian factor that moved q). With revisits, the
 * first one's slot is the one the window's cursor moves to once the record has taken the head slot
 * (the record's own when the window holds one), its V·x is taken under the V after the record's change
 * (V′x = Vx − ν·Vx_r·(Vx_r)ᵀx, into `siteVx`) and its change is planned ({@link planSiteRevisit}).
 * When the record is the row the last prediction was made for under this q (test-then-train), V·x,
 * μ, s² and the logit's tilt are taken from it. Throws `NumericalError` when the record's moments
 * are not usable (ν·s² ≥ 1 or a non-finite moment). `finite` true promises a finite w, ln|V| and
 * diagonal of V once written (false may be a false alarm). O(d²), nothing allocated.
 */
export function planAdfRecord(state: AdfState, x: Float64Array, offset: number, y: number, weight: number, workspace: AdfWorkspace): RecordPlan {
  const d = state.dim;
  const p = state.posterior;
  const plan = workspace.plan;
  const predicted = workspace.predicted;
  const reuse = takePredictedRow(predicted, x, offset);
  const vx = reuse ? predicted.vx : workspace.vx;
  if (!reuse) gemv(p.V, d, d, x, vx, 1, 0, offset);
  const s2 = reuse ? predicted.s2 : dot(vx, x, d, 0, offset);
  const mu = reuse ? predicted.mu : dot(p.w, x, d, 0, offset);
  const moments = recordTiltedMoments(state, workspace, mu, s2, y, weight, reuse && predicted.hasTilt ? predicted.tilt : undefined);
  const shrink = 1 - moments.nu * s2;
  const sitePrecision = moments.nu / shrink;
  const siteShift = (moments.alpha + moments.nu * mu) / shrink;
  if (!Number.isFinite(moments.alpha) || !(shrink > 0) || !Number.isFinite(shrink) || !Number.isFinite(siteShift)) {
    throw new NumericalError('tilted moments of a record are not usable (1 − ν·s² must be positive and finite, and the site finite)', { value: shrink });
  }
  const alpha = moments.alpha;
  const nu = moments.nu;
  plan.vx = vx;
  plan.alpha = alpha;
  plan.nu = nu;
  plan.logPredictive = moments.logZ;
  plan.shrink = shrink;
  plan.sitePrecision = sitePrecision;
  plan.siteShift = siteShift;
  const w = plan.w;
  for (let i = 0; i < d; i++) w[i] = p.w[i] + alpha * vx[i];
  let logDetV = p.logDetV + Math.log(shrink);
  const sites = state.sites;
  const siteVx = workspace.siteVx;
  let coefficient = 0;
  plan.revisitSlot = -1;
  plan.revisited = false;
  if (sites.revisits > 0) {
    const count = sites.count < sites.capacity ? sites.count + 1 : sites.count;
    const slot = (sites.cursor === 0 ? count : sites.cursor) - 1;
    const own = slot === sites.head;
    const rows = own ? x : sites.x;
    const first = own ? offset : slot * d;
    gemv(p.V, d, d, rows, siteVx, 1, 0, first);
    const overlap = nu * dot(vx, rows, d, 0, first);
    for (let i = 0; i < d; i++) siteVx[i] -= overlap * vx[i];
    plan.revisitSlot = slot;
    const change = plan.revisit;
    plan.revisited = planSiteRevisit(change, state, workspace, rows, first, own ? y : sites.y[slot], own ? weight : sites.weight[slot], own ? sitePrecision : sites.precision[slot], own ? siteShift : sites.shift[slot], w, siteVx);
    if (plan.revisited) {
      for (let i = 0; i < d; i++) w[i] += change.step * siteVx[i];
      logDetV -= change.logG;
      coefficient = change.coefficient;
    }
  }
  plan.logDetV = logDetV;
  // x·0 is 0 for finite x, NaN otherwise. V's diagonal as the rank-one changes will write it (without
  // revisits the second term is 0, or NaN for a stale non-finite siteVx: then `finite` is false, which only costs a backup).
  let zero = logDetV * 0;
  for (let i = 0; i < d; i++) zero += w[i] * 0 + (p.V[i * d + i] + -nu * vx[i] * vx[i] + coefficient * siteVx[i] * siteVx[i]) * 0;
  plan.finite = zero === 0;
  return plan;
}
