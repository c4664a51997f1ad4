import { erfcx } from '../special/erfcx.js';
import { normalCdf } from '../special/normal-cdf.js';

const SQRT_HALF_PI = 1.2533141373155003;
const INV_SQRT_2PI = 0.3989422804014327;

/** Partial derivatives of η_l with respect to ϑ and τ, written by {@link viperBound}. */
export interface ViperBoundGradient {
  dTheta: number;
  dTau: number;
}

/**
 * E[e^{±kX}; ±X < 0] for X ~ N(ϑ, τ²), written as φ(r)·R(z) with r = ϑ/τ and the Mills ratio
 * R(z) = Φ(−z)/φ(z) (z = r + kτ for A_k, kτ − r for B_k). For z ≥ 0, R(z) = √(π/2)·erfcx(z/√2) ≤ 1.26,
 * so the product cannot overflow; for z < 0 the same value is e^{exponent}·Φ(−z) with
 * exponent = (z² − r²)/2 = ±kϑ + k²τ²/2 ≤ 0. Every term lies in [0, 1].
 */
function millsTerm(phiR: number, z: number, exponent: number): number {
  if (z >= 0) return phiR === 0 ? 0 : phiR * SQRT_HALF_PI * erfcx(z * Math.SQRT1_2);
  return Math.exp(exponent) * normalCdf(-z);
}

/**
 * The VI-PER bound η_l(ϑ, τ) ≥ E[log(1 + e^X)], X ~ N(ϑ, τ²) (Komodromos et al. 2024, Theorem 2.1):
 *
 *   η_l = τφ(ϑ/τ) + ϑΦ(ϑ/τ) + Σ_{k=1}^{2l−1} (−1)^{k−1}/k · (A_k + B_k),
 *   A_k = e^{kϑ + k²τ²/2}Φ(−ϑ/τ − kτ),  B_k = e^{−kϑ + k²τ²/2}Φ(ϑ/τ − kτ),
 *
 * with ∂η/∂ϑ = Φ(ϑ/τ) + Σ(−1)^{k−1}(A_k − B_k) and ∂η/∂τ = −φ(ϑ/τ) + τΣ(−1)^{k−1}k(A_k + B_k) written
 * into `gradient`. The terms are evaluated in Mills-ratio form (see `millsTerm`), so η is finite
 * and accurate to ~1e-15 relative for every finite ϑ and τ ≥ 0, including k²τ²/2 > 709 where the
 * naive e^{…}·Φ(…) is ∞·0. τ = 0 gives the limit (the truncated series of softplus(ϑ); at ϑ = 0 the
 * limit along τ → 0). The bound decreases in l; l = 12 is the paper's choice. Allocation-free.
 *
 * @param l number of series pairs: the sum has 2l − 1 terms (a positive integer).
 */
export function viperBound(theta: number, tau: number, l: number, gradient?: ViperBoundGradient): number {
  const r = tau > 0 ? theta / tau : theta > 0 ? Infinity : theta < 0 ? -Infinity : 0;
  const phiR = INV_SQRT_2PI * Math.exp(-0.5 * r * r);
  const bigPhiR = normalCdf(r);
  let value = 0;
  let dTheta = 0;
  let dTauSum = 0;
  const terms = 2 * l - 1;
  for (let k = terms; k >= 1; k--) {
    const kt = k * tau;
    const half = 0.5 * kt * kt;
    const a = millsTerm(phiR, r + kt, k * theta + half);
    const b = millsTerm(phiR, kt - r, half - k * theta);
    const sign = (k & 1) === 1 ? 1 : -1;
    value += (sign * (a + b)) / k;
    dTheta += sign * (a - b);
    dTauSum += sign * k * (a + b);
  }
  const tauPhi = tau > 0 ? tau * phiR : 0;
  const thetaPhi = r === 0 && tau === 0 ? 0 : theta * bigPhiR;
  if (gradient !== undefined) {
    gradient.dTheta = bigPhiR + dTheta;
    gradient.dTau = -phiR + tau * dTauSum;
  }
  return tauPhi + thetaPhi + value;
}

const scratch: ViperBoundGradient = { dTheta: 0, dTau: 0 };

/**
 * {@link viperBound} over a batch: out[i] = η_l(theta[i], tau[i]) for i < n, and, when given,
 * dTheta[i] = ∂η/∂ϑ, dTau[i] = ∂η/∂τ. Flat arrays, no allocation.
 */
export function viperBoundBatch(theta: Float64Array, tau: Float64Array, l: number, out: Float64Array,
  dTheta?: Float64Array, dTau?: Float64Array, n = theta.length): void {
  for (let i = 0; i < n; i++) {
    out[i] = viperBound(theta[i], tau[i], l, scratch);
    if (dTheta !== undefined) dTheta[i] = scratch.dTheta;
    if (dTau !== undefined) dTau[i] = scratch.dTau;
  }
}
