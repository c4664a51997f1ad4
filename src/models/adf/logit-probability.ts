import type { LogitTilt } from './logit-tilt.js';

/** p(y = 1) from a {@link LogitTilt}: Z_o when o = +1, else 1 − Z_o. */
export function logitProbability(tilt: LogitTilt): number {
  const z = Math.exp(tilt.logZ);
  return tilt.orientation === 1 ? z : 1 - z;
}
