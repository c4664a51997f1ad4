import { poissonTiltedMoments } from './poisson-tilted-moments.js';
import { probitTiltedMoments } from './probit-tilted-moments.js';
import { quadratureTiltedMoments } from './quadrature-tilted-moments.js';
import type { AdfState } from './state.js';
import type { TiltedMoments } from './tilted-moments.js';
import type { AdfWorkspace } from './workspace.js';

/** s² above which the logit's tilted moments come from its probit approximation rather than quadrature. */
const WIDE_PROJECTION = 25;

/** κ = √(π/8): σ(f) ≈ Φ(κf). */
const LOGIT_PROBIT_SCALE = Math.sqrt(Math.PI / 8);

/**
 * The tilted moments of one record's likelihood p(y | f)^weight under f ~ N(μ, s²), into the
 * workspace: the probit in closed form; the logit by Gauss–Hermite, except for a projection wider
 * than s² = 25 (unscaled features early in a stream), where the nodes of N(μ, s²) lie too far apart
 * to resolve the step of σ and the probit approximation σ(f) ≈ Φ(κf) (MacKay 1992) is used; the
 * Poisson by the trapezoid rule around the tilted mode ({@link poissonTiltedMoments}).
 */
export function recordTiltedMoments(state: AdfState, workspace: AdfWorkspace, mu: number, s2: number, y: number, weight: number): TiltedMoments {
  if (state.link === 'poisson') return poissonTiltedMoments(workspace.moments, mu, s2, y, weight);
  if (state.link === 'probit' && weight === 1) return probitTiltedMoments(workspace.moments, mu, s2, y);
  if (weight === 1 && s2 > WIDE_PROJECTION) {
    const moments = probitTiltedMoments(workspace.moments, LOGIT_PROBIT_SCALE * mu, LOGIT_PROBIT_SCALE * LOGIT_PROBIT_SCALE * s2, y);
    moments.alpha *= LOGIT_PROBIT_SCALE;
    moments.nu *= LOGIT_PROBIT_SCALE * LOGIT_PROBIT_SCALE;
    return moments;
  }
  return quadratureTiltedMoments(workspace.moments, state.link as 'logit' | 'probit', mu, s2, y, weight, workspace.quadrature);
}
