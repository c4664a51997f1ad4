import type { Batch } from '../../core/batch.js';
import { NumericalError } from '../../core/numerical-error.js';
import type { UpdateStats } from '../../core/online-model.js';
import { signedLabels } from '../../core/signed-labels.js';
import { axpy } from '../../linalg/axpy.js';
import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import { symmetricRank1Update } from '../../linalg/symmetric-rank1-update.js';
import { probitTiltedMoments } from './probit-tilted-moments.js';
import { quadratureTiltedMoments } from './quadrature-tilted-moments.js';
import type { AdfState } from './state.js';
import type { AdfWorkspace } from './workspace.js';

/** s² above which the logit's tilted moments come from its probit approximation rather than quadrature. */
const WIDE_PROJECTION = 25;

/** κ = √(π/8): σ(f) ≈ Φ(κf). */
const LOGIT_PROBIT_SCALE = Math.sqrt(Math.PI / 8);

/**
 * Absorbs one record (features `x[offset .. offset+d)`, label y = ±1, likelihood tempered by
 * `weight`) by assumed density filtering (Opper 1998, eq. 8–9): f = xᵀβ has prior N(μ = xᵀw,
 * s² = xᵀVx); with α, ν of the tilted distribution, w ← w + α·Vx, V ← V − ν·(Vx)(Vx)ᵀ and
 * ln|V| ← ln|V| + ln(1 − ν·s²) (determinant lemma). O(d²), nothing allocated. A numerical failure
 * (ν·s² ≥ 1 or a non-finite moment) throws before anything is written. For the logit, a projection
 * wider than s² = 25 (unscaled features early in a stream) uses the probit approximation of σ: there the
 * Gauss–Hermite nodes of N(μ, s²) lie too far apart to resolve the step of σ.
 */
export function adfRecord(state: AdfState, x: Float64Array, offset: number, y: number, weight: number, workspace: AdfWorkspace): void {
  if (weight === 0) {
    state.records += 1;
    return;
  }
  const d = state.dim;
  const p = state.posterior;
  const vx = workspace.vx;
  gemv(p.V, d, d, x, vx, 1, 0, offset);
  const s2 = dot(vx, x, d, 0, offset);
  const mu = dot(p.w, x, d, 0, offset);
  let moments;
  if (state.link === 'probit' && weight === 1) moments = probitTiltedMoments(workspace.moments, mu, s2, y);
  else if (weight === 1 && s2 > WIDE_PROJECTION) {
    // σ(f) ≈ Φ(κf), κ² = π/8 (MacKay 1992): the moments of the probit in g = κf, then back to f.
    moments = probitTiltedMoments(workspace.moments, LOGIT_PROBIT_SCALE * mu, LOGIT_PROBIT_SCALE * LOGIT_PROBIT_SCALE * s2, y);
    moments.alpha *= LOGIT_PROBIT_SCALE;
    moments.nu *= LOGIT_PROBIT_SCALE * LOGIT_PROBIT_SCALE;
  } else moments = quadratureTiltedMoments(workspace.moments, state.link, mu, s2, y, weight, workspace.quadrature);
  const shrink = 1 - moments.nu * s2;
  if (!Number.isFinite(moments.alpha) || !(shrink > 0) || !Number.isFinite(shrink)) {
    throw new NumericalError('tilted moments of a record are not usable (1 − ν·s² must be positive and finite)', { value: shrink });
  }
  axpy(moments.alpha, vx, p.w, d);
  symmetricRank1Update(p.V, d, -moments.nu, vx);
  p.logDetV += Math.log(shrink);
  state.records += 1;
}

/** Absorbs a checked batch record by record, in order. */
export function adfStep(state: AdfState, batch: Batch, workspace: AdfWorkspace): UpdateStats {
  if (workspace.labels.length < batch.n) workspace.labels = new Float64Array(batch.n);
  const y = signedLabels(batch, workspace.labels);
  const d = state.dim;
  const weights = batch.weights;
  for (let r = 0; r < batch.n; r++) adfRecord(state, batch.x, r * d, y[r], weights === undefined ? 1 : weights[r], workspace);
  return { records: batch.n };
}
