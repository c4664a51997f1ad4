import type { LogitTilt } from './logit-tilt.js';
import type { TiltedMoments } from './tilted-moments.js';

/**
 * The tilted moments of the label y (±1) from a {@link LogitTilt}: for y = o as they are; for the
 * other label Z_y = 1 − Z_o, Z_y′ = −Z_o′ and Z_y″ = −Z_o″, so with r = Z_o/(1 − Z_o) ≤ 1:
 * α_y = −r·α_o and ν_y = α_y² + r·Z_o″/Z_o. Writes `out`.
 */
export function logitMomentsFor(out: TiltedMoments, tilt: LogitTilt, y: number): TiltedMoments {
  if (y === tilt.orientation) {
    out.logZ = tilt.logZ;
    out.alpha = tilt.alpha;
    out.nu = tilt.nu;
    return out;
  }
  const z = Math.exp(tilt.logZ);
  const ratio = z / (1 - z);
  out.logZ = Math.log1p(-z);
  out.alpha = -ratio * tilt.alpha;
  out.nu = out.alpha * out.alpha + ratio * tilt.curvature;
  return out;
}
