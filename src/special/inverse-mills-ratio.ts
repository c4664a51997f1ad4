import { erfcx } from './erfcx.js';
import { normalCdf } from './normal-cdf.js';

const SQRT_2_OVER_PI = 0.7978845608028654;
const INV_SQRT_2PI = 0.3989422804014327;

/**
 * Inverse Mills ratio λ(z) = φ(z)/Φ(z), for all real z: ≈ −z far in the lower tail, → 0 in the upper.
 * Algorithm: √(2/π)/erfcx(−z/√2) for z < 0 (φ and Φ share the factor e^{−z²/2}, so nothing
 * underflows and no logs cancel), φ(z)/Φ(z) directly for z ≥ 0 (Φ ≥ ½).
 */
export function inverseMillsRatio(z: number): number {
  if (z < 0) return SQRT_2_OVER_PI / erfcx(-z * Math.SQRT1_2);
  return (INV_SQRT_2PI * Math.exp(-0.5 * z * z)) / normalCdf(z);
}
