import type { Batch } from '../../core/batch.js';
import { NumericalError } from '../../core/numerical-error.js';
import type { UpdateStats } from '../../core/online-model.js';
import { signedLabels } from '../../core/signed-labels.js';
import { BernoulliLogitMonteCarlo } from '../../likelihoods/bernoulli-logit-monte-carlo.js';
import { cholesky } from '../../linalg/cholesky.js';
import { choleskyInverse } from '../../linalg/cholesky-inverse.js';
import { rowVariance } from './row-variance.js';
import { sdaStep } from './sda-step.js';
import type { ViPerState } from './state.js';
import type { ViPerWorkspace } from './workspace.js';

/**
 * The step size ρ_t = (1 + t/τ)^−κ of natural-gradient SVI step t (counted from 0 over the model's
 * life): Robbins–Monro (Σρ = ∞, Σρ² < ∞) for κ ∈ (0.5, 1]; ρ₀ = 1. With the defaults τ = 1, κ = 1,
 * ρ_t = 1/(t + 1) and Σ⁻¹ is the running mean of the per-step targets P₀ − 2Ĝ.
 */
export function sviStepSize(settings: ViPerState['settings'], t: number): number {
  return (1 + t / settings.tau) ** -settings.kappa;
}

/**
 * `stepsPerBatch` natural-gradient SVI steps on (N/B)·Σ_batch E log p − KL(q ‖ prior) (Hoffman et
 * al. 2013; for a Gaussian q, Khan & Lin 2017): with ĝ = (N/B)·Σ wᵢ ∂ₘ xᵢ − P₀(μ − m₀) and
 * Ĝ = (N/B)·Σ wᵢ ∂ᵥ xᵢxᵢᵀ (∂ₘ, ∂ᵥ the evaluator's partials in θᵢ = xᵢᵀμ and τᵢ² = xᵢᵀΣxᵢ),
 *
 *   Σ⁻¹ ← (1 − ρ)Σ⁻¹ + ρ(P₀ − 2Ĝ),   μ ← μ + ρ Σ ĝ    (diagonal form: the diagonals only),
 *
 * whose fixed point for the full batch is the stationary point of F, the L-BFGS fit's. The step count
 * is kept in `state.adam.t` (the Adam moments are unused). Fresh Monte Carlo draws per step for
 * `monte-carlo`. A precision that is not positive definite or a non-finite value throws NumericalError.
 */
function naturalSteps(family: string, state: ViPerState, batch: Batch, workspace: ViPerWorkspace): void {
  const { x, n, weights } = batch;
  const { objective, params, gradient, labels, prior } = workspace;
  const { settings, adam, rng, dim: d, mu, factor } = state;
  const size = settings.dataSize > 0 ? settings.dataSize : state.records + n;
  const scale = size / n;
  const likelihood = objective.likelihood;
  const full = settings.covariance === 'full';
  const p0 = prior.precision;
  const { rowGradient: g, gMu, gSigma, u, precision, work, sigma } = workspace.natural;
  for (let step = 0; step < settings.stepsPerBatch; step++) {
    if (likelihood instanceof BernoulliLogitMonteCarlo) likelihood.resample(rng);
    gMu.fill(0);
    gSigma.fill(0);
    for (let r = 0; r < n; r++) {
      const base = r * d;
      let theta = 0;
      for (let a = 0; a < d; a++) theta += x[base + a] * mu[a];
      const tau2 = rowVariance(factor, d, x, base, u, full);
      const w = scale * (weights === undefined ? 1 : weights[r]);
      likelihood.expectedLogProb(labels[r], theta, tau2, g);
      const gm = w * g.dm;
      const gv = w * g.dv;
      for (let a = 0; a < d; a++) {
        gMu[a] += gm * x[base + a];
        if (full) for (let b = 0; b <= a; b++) gSigma[a * d + b] += gv * x[base + a] * x[base + b];
        else gSigma[a * d + a] += gv * x[base + a] * x[base + a];
      }
    }
    for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) gMu[a] -= p0[a * d + b] * (mu[b] - prior.mean[b]);
    const rho = sviStepSize(settings, adam.t);
    // Σ⁻¹ from the current factor, then the natural-parameter step (lower triangle; diagonal form: diagonal).
    choleskyInverse(factor, d, precision);
    for (let a = 0; a < d; a++) {
      for (let b = 0; b <= a; b++) {
        if (!full && a !== b) { precision[a * d + b] = 0; continue; }
        precision[a * d + b] = (1 - rho) * precision[a * d + b] + rho * (p0[a * d + b] - 2 * gSigma[a * d + b]);
      }
      for (let b = a + 1; b < d; b++) precision[a * d + b] = full ? precision[b * d + a] : 0;
    }
    if (!precision.every(Number.isFinite) || !gMu.every(Number.isFinite)) {
      throw new NumericalError(`${family}: the SVI step became non-finite`, { field: 'objective', value: Number.NaN });
    }
    cholesky(precision, d, work, { maxTries: 0, what: `${family} SVI precision` });
    choleskyInverse(work, d, sigma);
    cholesky(sigma, d, factor, { maxTries: 0, what: `${family} SVI covariance` });
    for (let a = 0; a < d; a++) {
      let sum = 0;
      for (let b = 0; b < d; b++) sum += sigma[a * d + b] * gMu[b];
      u[a] = sum;
    }
    for (let a = 0; a < d; a++) mu[a] += rho * u[a];
    adam.t += 1;
  }
  objective.pack(mu, factor, params);
  const value = objective.evaluate(params, gradient, x, labels, n, weights, scale, prior);
  if (!Number.isFinite(value) || !mu.every(Number.isFinite) || !factor.every(Number.isFinite)) {
    throw new NumericalError(`${family}: the SVI step became non-finite (${value})`, { field: 'objective', value });
  }
  state.objective = value;
  state.iterations = settings.stepsPerBatch;
}

/** `stepsPerBatch` Adam steps on (N/B)·Σ_batch E log p − KL(q ‖ prior), fresh Monte Carlo draws per step for `monte-carlo`. */
function adamSteps(family: string, state: ViPerState, batch: Batch, workspace: ViPerWorkspace): void {
  const { x, n, weights } = batch;
  const { objective, params, gradient, labels } = workspace;
  const { settings, adam, rng } = state;
  const size = settings.dataSize > 0 ? settings.dataSize : state.records + n;
  const likelihood = objective.likelihood;
  objective.pack(state.mu, state.factor, params);
  let value = Number.NaN;
  for (let step = 0; step < settings.stepsPerBatch; step++) {
    if (likelihood instanceof BernoulliLogitMonteCarlo) likelihood.resample(rng);
    value = objective.evaluate(params, gradient, x, labels, n, weights, size / n, workspace.prior);
    for (let i = 0; i < gradient.length; i++) gradient[i] = -gradient[i];
    adam.step(params, gradient);
  }
  if (!Number.isFinite(value) || !params.every(Number.isFinite)) {
    throw new NumericalError(`${family}: the SVI step became non-finite (${value})`, { field: 'objective', value });
  }
  objective.unpack(params, state.mu, state.factor);
  state.objective = value;
  state.iterations = settings.stepsPerBatch;
}


/**
 * Absorbs a checked, non-empty batch (labels 0/1 or ±1): under `sda` streaming VB with a bounded
 * replay ({@link sdaStep}: L-BFGS fits of F with the anchor q_a as the prior), under `svi` `stepsPerBatch` natural-gradient
 * (default) or Adam steps.
 * A non-finite objective throws `NumericalError` (the shell then restores the state).
 */
export function viPerStep(family: string, state: ViPerState, batch: Batch, workspace: ViPerWorkspace): UpdateStats {
  if (workspace.labels.length < batch.n) workspace.labels = new Float64Array(batch.n);
  signedLabels(batch, workspace.labels);
  if (state.settings.streaming === 'svi') {
    if (state.settings.optimizer === 'adam') adamSteps(family, state, batch, workspace);
    else naturalSteps(family, state, batch, workspace);
  }
  else sdaStep(family, state, batch, workspace);
  state.records += batch.n;
  return { records: batch.n, objective: state.objective, iterations: state.iterations };
}
