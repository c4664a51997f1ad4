const SPLIT = 65536;
const EXACT_LIMIT = 1024;

/**
 * exp(scale·x²) without the error of rounding x² first.
 *
 * Domain: any x; `scale` must be ±2^k with |scale| ≥ 1/2 (1, -1, -0.5 in this library).
 * Algorithm: x = h + l where h keeps 16 fraction bits, so scale·h² is exact and
 * x² = h² + l·(x + h); exp is then taken of each part (Cody's CALERF splitting).
 * Accuracy: a few ulps for normal results, where exp(scale·x·x) would lose up to
 * x²·2⁻⁵³ relative (≈1e-13 at x = 30). Beyond |x| = 1024 the result is 0 or ∞ anyway.
 */
export function expSquare(x: number, scale: number): number {
  const a = Math.abs(x);
  if (!(a < EXACT_LIMIT)) return Math.exp(scale * a * a);
  const hi = Math.trunc(a * SPLIT) / SPLIT;
  const lo = (a - hi) * (a + hi);
  return Math.exp(scale * hi * hi) * Math.exp(scale * lo);
}
