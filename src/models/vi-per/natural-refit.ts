import { NumericalError } from '../../core/numerical-error.js';
import { cholesky } from '../../linalg/cholesky.js';
import { choleskyInverse } from '../../linalg/cholesky-inverse.js';
import { logDetCholesky } from '../../linalg/log-det-cholesky.js';
import type { GaussianPrior } from './gaussian-prior.js';
import { rowVariance } from './row-variance.js';
import { sdaFit } from './sda-fit.js';
import type { ViPerSettings } from './settings.js';
import type { ViPerWorkspace } from './workspace.js';

/**
 * A refit stops once the gain its next step promises, ½ gᵀΣg (mean) + ¼ tr((ΣΔP)²) (covariance),
 * KL(q_next ‖ q) to second order, falls below this many nats: far below the error of any streaming
 * approximation (≥ 1e-5), and, while the replay holds every record, the one-batch fit to KL ≈ 1e-10.
 */
const STEP_GAIN = 1e-11;

/** A pass whose F is below the previous one by more than this, relatively (rounding aside), overshot. */
const OVERSHOOT = 1e-9;

/** Passes before a refit that has not converged hands over to L-BFGS. */
const MAX_PASSES = 30;

/**
 * q = N(mu, LLᵀ) (full covariance, L = `factor`) moved to the stationary point of
 * F = Σᵢ wᵢ E_q[log p(yᵢ | xᵢᵀβ)] − KL(q ‖ prior) on the records `from` … `to` − 1 of `x` (labels ±1 in `y`)
 * by natural-gradient passes with step 1 (for a Gaussian q the Newton-type fixed-point iteration of
 * F, Khan & Lin 2017): with ∂ₘ, ∂ᵥ the evaluator's partials at θᵢ = xᵢᵀμ, τᵢ² = ‖Lᵀxᵢ‖²,
 *
 *   Σ⁻¹ ← P₀ − 2 Σᵢ wᵢ ∂ᵥ xᵢxᵢᵀ,   μ ← μ + Σ (Σᵢ wᵢ ∂ₘ xᵢ − P₀(μ − m₀)),
 *
 * warm-started at the given q, each pass O((to − from)·d²) + O(d³). Stops when the step's gain is below
 * {@link STEP_GAIN}; if a pass finds F lower than the one before (a step overshot) or {@link MAX_PASSES}
 * go by, it returns to the best q and finishes by L-BFGS ({@link sdaFit}). Returns F at the last
 * evaluated q and the passes (plus L-BFGS iterations). A non-finite F throws `NumericalError`.
 */
export function naturalRefit(family: string, settings: ViPerSettings, workspace: ViPerWorkspace, prior: GaussianPrior, mu: Float64Array, factor: Float64Array,
  x: Float64Array, y: Float64Array, weights: Float64Array | undefined, from: number, to: number): { objective: number; iterations: number } {
  const d = mu.length;
  const likelihood = workspace.objective.likelihood;
  const { gMu, gSigma: precision, work, sigma, u, rowGradient: g, previousMu, previousFactor } = workspace.natural;
  const p0 = prior.precision;
  let best = Number.NEGATIVE_INFINITY;
  for (let pass = 1; ; pass++) {
    // F at q and its natural-gradient step: gMu = ∂F/∂μ, precision = P₀ − 2G.
    precision.set(p0);
    gMu.fill(0);
    let data = 0;
    for (let r = from; r < to; r++) {
      const base = r * d;
      let theta = 0;
      for (let a = 0; a < d; a++) theta += x[base + a] * mu[a];
      const tau2 = rowVariance(factor, d, x, base, u);
      const w = weights === undefined ? 1 : weights[r];
      data += w * likelihood.expectedLogProb(y[r], theta, tau2, g);
      const gm = w * g.dm;
      const h = -2 * w * g.dv;
      for (let a = 0; a < d; a++) {
        const xa = x[base + a];
        gMu[a] += gm * xa;
        const hx = h * xa;
        for (let b = 0; b <= a; b++) precision[a * d + b] += hx * x[base + b];
      }
    }
    const value = data - klToPrior(mu, factor, prior, u, d);
    if (!Number.isFinite(value)) throw new NumericalError(`${family}: the objective became non-finite (${value}) during a refit`, { field: 'objective', value });
    if (value < best - OVERSHOOT * Math.abs(best) || pass > MAX_PASSES) {
      mu.set(previousMu);
      factor.set(previousFactor);
      const fit = sdaFit(family, settings, workspace, prior, mu, factor, x.subarray(from * d, to * d), y.subarray(from, to), to - from, weights?.subarray(from, to));
      return { objective: fit.objective, iterations: pass + fit.iterations };
    }
    best = value;
    previousMu.set(mu);
    previousFactor.set(factor);
    for (let a = 0; a < d; a++) {
      let sum = 0;
      for (let b = 0; b < d; b++) sum += p0[a * d + b] * (mu[b] - prior.mean[b]);
      gMu[a] -= sum;
      for (let b = a + 1; b < d; b++) precision[a * d + b] = precision[b * d + a];
    }
    // ¼ tr((ΣΔP)²) with ΔP = P_new − Σ⁻¹, read through Σ = LLᵀ as tr((LᵀP_new L − I)²); T = P_new L in `sigma`.
    for (let b = 0; b < d; b++) {
      for (let j = 0; j < d; j++) {
        let sum = 0;
        for (let c = j; c < d; c++) sum += precision[b * d + c] * factor[c * d + j];
        sigma[b * d + j] = sum;
      }
    }
    let covarianceGain = 0;
    for (let i = 0; i < d; i++) {
      for (let j = 0; j <= i; j++) {
        let sum = i === j ? -1 : 0;
        for (let a = i; a < d; a++) sum += factor[a * d + i] * sigma[a * d + j];
        covarianceGain += i === j ? sum * sum : 2 * sum * sum;
      }
    }
    cholesky(precision, d, work, { maxTries: 0, what: `${family} refit precision` });
    choleskyInverse(work, d, sigma);
    cholesky(sigma, d, factor, { maxTries: 0, what: `${family} refit covariance` });
    let meanGain = 0;
    for (let a = 0; a < d; a++) {
      let sum = 0;
      for (let b = 0; b < d; b++) sum += sigma[a * d + b] * gMu[b];
      u[a] = sum;
      meanGain += sum * gMu[a];
    }
    for (let a = 0; a < d; a++) mu[a] += u[a];
    if (!mu.every(Number.isFinite) || !factor.every(Number.isFinite)) {
      throw new NumericalError(`${family}: a refit step became non-finite`, { field: 'objective', value: Number.NaN });
    }
    if (0.5 * meanGain + 0.25 * covarianceGain < STEP_GAIN) return { objective: value, iterations: pass };
  }
}

/** KL(N(μ, LLᵀ) ‖ prior) (eq. 10), `scratch` a d-vector. */
function klToPrior(mu: Float64Array, factor: Float64Array, prior: GaussianPrior, scratch: Float64Array, d: number): number {
  const p0 = prior.precision;
  for (let a = 0; a < d; a++) scratch[a] = mu[a] - prior.mean[a];
  let mahalanobis = 0;
  let trace = 0;
  for (let a = 0; a < d; a++) {
    let sum = 0;
    for (let b = 0; b < d; b++) sum += p0[a * d + b] * scratch[b];
    mahalanobis += scratch[a] * sum;
    // tr(P₀LLᵀ) = Σⱼ (Lᵀ P₀ L)ⱼⱼ, column a of L.
    for (let b = a; b < d; b++) {
      let row = 0;
      for (let c = a; c < d; c++) row += p0[b * d + c] * factor[c * d + a];
      trace += factor[b * d + a] * row;
    }
  }
  return 0.5 * (trace + mahalanobis - d + prior.logDetCovariance - logDetCholesky(factor, d));
}
