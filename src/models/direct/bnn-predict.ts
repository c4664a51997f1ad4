import type { DirectBnnShape } from './bnn-state.js';
import type { DirectPredictiveMoments } from './predict.js';

/**
 * Exact predictive moments of f(x*) = Σ_h v_h a_h² + c, a_h = u_hᵀx̃*, under the mean-field q, from
 * the raw moments E[w^r] (r ≤ 4; 4 blocks of b) and E_q[σ²]. With α = μ_hᵀx̃, β = Σ_i s_hi x̃_i²,
 * τ = Σ_i c3_hi x̃_i³, κ = Σ_i κ4_hi x̃_i⁴ (central moments and cumulants of q(u_hi)):
 * E a² = α² + β, E a⁴ = α⁴ + 6α²β + 4ατ + 3β² + κ; E f = Σ_h ν_h E a_h² + γ (the analogue of eq. 9)
 * and, the units and c being independent under q,
 * Var f = Σ_h (Var v_h · E a_h⁴ + ν_h² Var a_h²) + Var c. O(H·D).
 */
export function directBnnPredictiveMoments(shape: DirectBnnShape, moments: Float64Array, expectedNoise: number, x: Float64Array, offset: number): DirectPredictiveMoments {
  const { d, D, H, b } = shape;
  let mean = moments[b - 1];
  let varianceF = Math.max(0, moments[2 * b - 1] - mean * mean);
  for (let h = 0; h < H; h++) {
    let alpha = 0;
    let beta = 0;
    let tau = 0;
    let kappa = 0;
    for (let i = 0; i < D; i++) {
      const xi = i === d ? 1 : x[offset + i];
      const j = h * D + i;
      const m1 = moments[j];
      const m2 = moments[b + j];
      const m3 = moments[2 * b + j];
      const m4 = moments[3 * b + j];
      const x2 = xi * xi;
      alpha += m1 * xi;
      beta += (m2 - m1 * m1) * x2;
      tau += (m3 - 3 * m1 * m2 + 2 * m1 * m1 * m1) * x2 * xi;
      kappa += (m4 - 4 * m1 * m3 - 3 * m2 * m2 + 12 * m1 * m1 * m2 - 6 * m1 * m1 * m1 * m1) * x2 * x2;
    }
    const a2 = alpha * alpha + beta;
    const a4 = alpha ** 4 + 6 * alpha * alpha * beta + 4 * alpha * tau + 3 * beta * beta + kappa;
    const nu = moments[H * D + h];
    const varV = Math.max(0, moments[b + H * D + h] - nu * nu);
    mean += nu * a2;
    varianceF += varV * a4 + nu * nu * Math.max(0, a4 - a2 * a2);
  }
  return { mean, varianceF, variance: varianceF + expectedNoise };
}
