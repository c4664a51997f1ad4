import { inverseMillsRatio } from '../../special/inverse-mills-ratio.js';
import { logNormalCdf } from '../../special/log-normal-cdf.js';
import type { TiltedMoments } from './tilted-moments.js';

/**
 * Closed-form tilted moments of the probit likelihood Φ(yf) under f ~ N(μ, s²) (Rasmussen &
 * Williams eq. 3.58, Minka 2001 §3.1): z = yμ/√(1 + s²), Z = Φ(z), α = y·λ(z)/√(1 + s²) and
 * ν = λ(z)(z + λ(z))/(1 + s²) with λ the inverse Mills ratio. Writes `out`.
 */
export function probitTiltedMoments(out: TiltedMoments, mu: number, s2: number, y: number): TiltedMoments {
  const root = Math.sqrt(1 + s2);
  const z = (y * mu) / root;
  const lambda = inverseMillsRatio(z);
  out.logZ = logNormalCdf(z);
  out.alpha = (y * lambda) / root;
  out.nu = (lambda * (z + lambda)) / (1 + s2);
  return out;
}
