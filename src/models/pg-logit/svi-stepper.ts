import { dot } from '../../linalg/dot.js';
import { gramAccumulate } from '../../linalg/gram-accumulate.js';
import { solveLowerRowNorms } from '../../linalg/solve-lower-row-norms.js';
import { robbinsMonroStep } from '../../optim/robbins-monro-step.js';
import { jaakkolaJordanLambda } from '../../special/jaakkola-jordan-lambda.js';
import { refreshMoments } from './refresh-moments.js';
import type { PgLogitState } from './state.js';

/**
 * One step of SVI for logistic regression (Durante & Rigon Algorithm 3, eq. 3.7; Hoffman et al.
 * 2013) on a minibatch B of n records: local ξᵢ = √(xᵢᵀΣxᵢ + (xᵢᵀμ)²) from the current q(β)
 * (xᵢᵀΣxᵢ = ‖L⁻¹xᵢ‖², one triangular solve), z̄ᵢ = tanh(ξᵢ/2)/(2ξᵢ), then with ρ_t = (t + τ)^−κ and
 * s = N/|B| (N the effective data size)
 *   λ₁ ← (1 − ρ_t)λ₁ + ρ_t[Σ₀⁻¹μ₀ + s·Σ xᵢ(yᵢ − ½)],
 *   −2λ₂ ← (1 − ρ_t)(−2λ₂) + ρ_t[Σ₀⁻¹ + s·Σ z̄ᵢxᵢxᵢᵀ],
 * and the Cholesky factor of −2λ₂ and μ are refreshed. The scratch buffers live here, so a step
 * allocates nothing once the largest minibatch has been seen; the state is written only after the
 * new factor exists, so a numerical failure leaves it untouched.
 */
export class SviStepper {
  private readonly work: Float64Array;
  private readonly gradient: Float64Array;
  private readonly nextShift: Float64Array;
  private readonly nextPrecision: Float64Array;
  private readonly nextFactor: Float64Array;
  private readonly nextMean: Float64Array;
  private rowScale = new Float64Array(0);
  private variances = new Float64Array(0);

  constructor(private readonly dim: number) {
    this.work = new Float64Array(8 * dim);
    this.gradient = new Float64Array(dim);
    this.nextShift = new Float64Array(dim);
    this.nextPrecision = new Float64Array(dim * dim);
    this.nextFactor = new Float64Array(dim * dim);
    this.nextMean = new Float64Array(dim);
  }

  /** Applies one step with the n records of `x` (row-major), labels ±1 and optional weights. */
  step(state: PgLogitState, x: Float64Array, ySigned: Float64Array, n: number, weights?: Float64Array): void {
    const d = this.dim;
    const { gradient, nextShift, nextPrecision } = this;
    if (this.rowScale.length < n) {
      this.rowScale = new Float64Array(n);
      this.variances = new Float64Array(n);
    }
    const { rowScale, variances } = this;
    const { tau, kappa, effectiveSize } = state.settings;
    const rho = robbinsMonroStep(state.step + 1, tau, kappa);
    const scale = effectiveSize / n;
    gradient.fill(0);
    solveLowerRowNorms(state.factor, d, x, n, variances, this.work);
    for (let r = 0; r < n; r++) {
      const base = r * d;
      const m = dot(state.mean, x, d, 0, base);
      const xi = Math.sqrt(variances[r] + m * m);
      const weight = weights === undefined ? 1 : weights[r];
      rowScale[r] = 2 * jaakkolaJordanLambda(xi) * weight;
      const g = 0.5 * ySigned[r] * weight;
      for (let j = 0; j < d; j++) gradient[j] += g * x[base + j];
    }
    nextPrecision.set(state.prior.precision);
    gramAccumulate(x, n, d, nextPrecision, scale, rowScale);
    const keep = 1 - rho;
    for (let k = 0; k < d * d; k++) nextPrecision[k] = keep * state.precision[k] + rho * nextPrecision[k];
    for (let j = 0; j < d; j++) nextShift[j] = keep * state.shift[j] + rho * (state.prior.shift[j] + scale * gradient[j]);
    refreshMoments(nextShift, nextPrecision, d, this.nextFactor, this.nextMean);
    state.shift.set(nextShift);
    state.precision.set(nextPrecision);
    state.factor.set(this.nextFactor);
    state.mean.set(this.nextMean);
    state.step += 1;
    state.records += n;
    state.elbo = Number.NaN;
    state.iterations = 1;
  }
}
