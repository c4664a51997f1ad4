import type { Batch } from '../../core/batch.js';
import { NumericalError } from '../../core/numerical-error.js';
import type { UpdateStats } from '../../core/online-model.js';
import { signedLabels } from '../../core/signed-labels.js';
import { BernoulliLogitMonteCarlo } from '../../likelihoods/bernoulli-logit-monte-carlo.js';
import { minimizeLbfgs } from '../../optim/lbfgs.js';
import { gaussianPriorFromFactor } from './gaussian-prior.js';
import type { ViPerState } from './state.js';
import type { ViPerWorkspace } from './workspace.js';

/** L-BFGS on F (eq. 11) for this batch, the current q as the prior (the original prior for the first batch). */
function fitBatch(family: string, state: ViPerState, batch: Batch, workspace: ViPerWorkspace): void {
  const { x, n, weights } = batch;
  const { objective, params, labels } = workspace;
  const prior = state.records === 0 ? workspace.prior : gaussianPriorFromFactor(state.mu, state.factor, state.dim);
  objective.pack(state.mu, state.factor, params);
  const result = minimizeLbfgs((p, g) => {
    const f = objective.evaluate(p, g, x, labels, n, weights, 1, prior);
    for (let i = 0; i < g.length; i++) g[i] = -g[i];
    return -f;
  }, params, { relativeTolerance: state.settings.tol, maxIterations: state.settings.maxIter });
  if (!Number.isFinite(result.value) || !result.x.every(Number.isFinite)) {
    throw new NumericalError(`${family}: the objective became non-finite (${result.value}) during the fit`, { field: 'objective', value: result.value });
  }
  objective.unpack(result.x, state.mu, state.factor);
  state.objective = -result.value;
  state.iterations = result.iterations;
}

/** `stepsPerBatch` Adam steps on (N/B)·Σ_batch E log p − KL(q ‖ prior), fresh Monte Carlo draws per step for `monte-carlo`. */
function sviSteps(family: string, state: ViPerState, batch: Batch, workspace: ViPerWorkspace): void {
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
 * Absorbs a checked, non-empty batch (labels 0/1 or ±1): under `sda` an L-BFGS fit of F on the
 * batch with the current q as the prior (streaming VB), under `svi` `stepsPerBatch` Adam steps.
 * A non-finite objective throws `NumericalError` (the shell then restores the state).
 */
export function viPerStep(family: string, state: ViPerState, batch: Batch, workspace: ViPerWorkspace): UpdateStats {
  if (workspace.labels.length < batch.n) workspace.labels = new Float64Array(batch.n);
  signedLabels(batch, workspace.labels);
  if (state.settings.streaming === 'svi') sviSteps(family, state, batch, workspace);
  else fitBatch(family, state, batch, workspace);
  state.records += batch.n;
  return { records: batch.n, objective: state.objective, iterations: state.iterations };
}
