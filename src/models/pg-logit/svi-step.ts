import { jaakkolaJordanXi } from '../../likelihoods/jaakkola-jordan-xi.js';
import { dot } from '../../linalg/dot.js';
import { gramAccumulate } from '../../linalg/gram-accumulate.js';
import { solveLowerRowNorms } from '../../linalg/solve-lower-row-norms.js';
import { robbinsMonroStep } from '../../optim/robbins-monro-step.js';
import { polyaGammaMean } from '../../special/polya-gamma-mean.js';
import { refreshMoments } from './refresh-moments.js';
import type { PgLogitState } from './state.js';
import type { PgLogitWorkspace } from './workspace.js';

/**
 * One step of SVI for logistic regression (Durante & Rigon Algorithm 3, eq. 3.7; Hoffman et al.
 * 2013) on a minibatch B of n records (row-major x, labels ±1, optional weights): local
 * ξᵢ = √(xᵢᵀΣxᵢ + (xᵢᵀμ)²) from the current q(β) (xᵢᵀΣxᵢ = ‖L⁻¹xᵢ‖², one triangular solve),
 * z̄ᵢ = E[ωᵢ] = tanh(ξᵢ/2)/(2ξᵢ), then with ρ_t = (t + τ)^−κ and s = N/|B| (N the effective data size)
 *   λ₁ ← (1 − ρ_t)λ₁ + ρ_t[Σ₀⁻¹μ₀ + s·Σ xᵢ(yᵢ − ½)],
 *   −2λ₂ ← (1 − ρ_t)(−2λ₂) + ρ_t[Σ₀⁻¹ + s·Σ z̄ᵢxᵢxᵢᵀ],
 * and the Cholesky factor of −2λ₂ and μ are refreshed. Allocates nothing once the workspace has
 * seen the largest minibatch.
 */
export function pgLogitSviStep(state: PgLogitState, x: Float64Array, ySigned: Float64Array, n: number, weights: Float64Array | undefined, workspace: PgLogitWorkspace): void {
  const d = state.dim;
  if (workspace.rowScale.length < n) {
    workspace.rowScale = new Float64Array(n);
    workspace.variances = new Float64Array(n);
  }
  const { gradient, targetPrecision, rowScale, variances } = workspace;
  const { tau, kappa, effectiveSize } = state.settings;
  const rho = robbinsMonroStep(state.step + 1, tau, kappa);
  const scale = effectiveSize / n;
  gradient.fill(0);
  solveLowerRowNorms(state.factor, d, x, n, variances, workspace.rowNormWork);
  for (let r = 0; r < n; r++) {
    const base = r * d;
    const xi = jaakkolaJordanXi(dot(state.mean, x, d, 0, base), variances[r]);
    const weight = weights === undefined ? 1 : weights[r];
    rowScale[r] = polyaGammaMean(xi) * weight;
    const g = 0.5 * ySigned[r] * weight;
    for (let j = 0; j < d; j++) gradient[j] += g * x[base + j];
  }
  targetPrecision.set(state.prior.precision);
  gramAccumulate(x, n, d, targetPrecision, scale, rowScale);
  const keep = 1 - rho;
  for (let k = 0; k < d * d; k++) state.precision[k] = keep * state.precision[k] + rho * targetPrecision[k];
  for (let j = 0; j < d; j++) state.shift[j] = keep * state.shift[j] + rho * (state.prior.shift[j] + scale * gradient[j]);
  refreshMoments(state.shift, state.precision, d, state.factor, state.mean);
  state.step += 1;
  state.records += n;
  state.elbo = Number.NaN;
  state.iterations = 1;
}
