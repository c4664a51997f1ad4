import { ERF_SMALL_LIMIT, erfSmall } from './erf-small.js';
import { erfc } from './erfc.js';

/**
 * Error function erf(x), for all real x.
 *
 * Algorithm: Cody's rational approximation directly for |x| ≤ 0.46875 (so erf(x) ≈ 2x/√π
 * keeps full relative accuracy near 0, down to subnormal x), ±(1 − erfc(|x|)) beyond.
 * Accuracy (vs mpmath): ≤ 3e-16 relative.
 */
export function erf(x: number): number {
  if (Math.abs(x) <= ERF_SMALL_LIMIT) return erfSmall(x);
  return x < 0 ? erfc(-x) - 1 : 1 - erfc(x);
}
