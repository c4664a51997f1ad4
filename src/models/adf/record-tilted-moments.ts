import { logitMomentsFor } from './logit-moments-for.js';
import type { LogitTilt } from './logit-tilt.js';
import { logitTiltFor } from './logit-tilt-for.js';
import { poissonTiltedMoments } from './poisson-tilted-moments.js';
import { probitTiltedMoments } from './probit-tilted-moments.js';
import { quadratureTiltedMoments } from './quadrature-tilted-moments.js';
import type { AdfState } from './state.js';
import type { TiltedMoments } from './tilted-moments.js';
import type { AdfWorkspace } from './workspace.js';
import { WIDE_PROJECTION } from './wide-projection.js';

/** κ = √(π/8): σ(f) ≈ Φ(κf). */
const LOGIT_PROBIT_SCALE = Math.sqrt(Math.PI / 8);

/** The logit's tilted moments from its probit approximation σ(f) ≈ Φ(κf) (MacKay 1992), in closed form. */
function logitByProbit(out: TiltedMoments, mu: number, s2: number, y: number): TiltedMoments {
  const moments = probitTiltedMoments(out, LOGIT_PROBIT_SCALE * mu, LOGIT_PROBIT_SCALE * LOGIT_PROBIT_SCALE * s2, y);
  moments.alpha *= LOGIT_PROBIT_SCALE;
  moments.nu *= LOGIT_PROBIT_SCALE * LOGIT_PROBIT_SCALE;
  return moments;
}

/**
 * The tilted moments of one record's likelihood p(y | f)^weight under f ~ N(μ, s²), into the
 * workspace: the probit in closed form; the logit by {@link logitTiltFor} (a closed-form series for a
 * narrow projection, else Gauss–Hermite centred on the tilted mode with the smallest rule exact enough
 * at s²), or `tilt` when the caller has it already; a weighted record by the general `quadratureTiltedMoments`), except for a projection wider than s² = 25 (unscaled features early in a stream), where even
 * centred nodes lie too far apart to resolve the step of σ and the probit approximation
 * σ(f) ≈ Φ(κf) (MacKay 1992) is used; the Poisson by the trapezoid rule around the tilted mode
 * ({@link poissonTiltedMoments}). Both binary likelihoods are log-concave, so the exact moments
 * satisfy 0 ≤ ν·s² < 1 (the tilted variance s² − ν·s⁴ is positive and at most s²); quadrature
 * moments outside that range (or not finite) are replaced by the closed form's (the logit's probit
 * approximation; a weight w as w copies of the site), which always lie inside it, so a record never
 * makes q improper.
 */
export function recordTiltedMoments(state: AdfState, workspace: AdfWorkspace, mu: number, s2: number, y: number, weight: number, tilt?: LogitTilt): TiltedMoments {
  if (state.link === 'poisson') return poissonTiltedMoments(workspace.moments, mu, s2, y, weight);
  if (state.link === 'probit' && weight === 1) return probitTiltedMoments(workspace.moments, mu, s2, y);
  if (weight === 1 && s2 > WIDE_PROJECTION) return logitByProbit(workspace.moments, mu, s2, y);
  const moments = state.link === 'logit' && weight === 1
    ? logitMomentsFor(workspace.moments, tilt ?? logitTiltFor(workspace.tilt, mu, s2, workspace.logitRules), y)
    : quadratureTiltedMoments(workspace.moments, state.link as 'logit' | 'probit', mu, s2, y, weight, workspace.quadrature);
  const removed = moments.nu * s2;
  if (Number.isFinite(moments.alpha) && Number.isFinite(moments.logZ) && removed >= 0 && removed < 1) return moments;
  const single = state.link === 'probit' ? probitTiltedMoments(workspace.moments, mu, s2, y) : logitByProbit(workspace.moments, mu, s2, y);
  return weight === 1 ? single : temperedSite(single, mu, s2, weight);
}

/**
 * The moments of `weight` copies of a record's site at once: the untempered site τ = ν/(1 − νs²),
 * h = (α + νμ)/(1 − νs²) taken `weight` times gives ν′ = wτ/(1 + wτs²), α′ = (wh − wτμ)/(1 + wτs²),
 * proper for every w > 0.
 */
function temperedSite(moments: TiltedMoments, mu: number, s2: number, weight: number): TiltedMoments {
  const keep = 1 - moments.nu * s2;
  const precision = (weight * moments.nu) / keep;
  const shift = (weight * (moments.alpha + moments.nu * mu)) / keep;
  moments.nu = precision / (1 + precision * s2);
  moments.alpha = (shift - precision * mu) / (1 + precision * s2);
  return moments;
}
