import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { signedLabels } from '../../core/signed-labels.js';
import { logDetCholesky } from '../../linalg/log-det-cholesky.js';
import { pgLogitCavi } from './cavi.js';
import type { PgLogitState } from './state.js';
import { pgLogitSviStep } from './svi-step.js';
import type { PgLogitWorkspace } from './workspace.js';

/**
 * Absorbs a checked batch (labels 0/1 or ±1): in `svi` mode one SVI step (Algorithm 3, see
 * {@link pgLogitSviStep}); in `sda` mode CAVI (Algorithm 2) on the batch with the current q(β) as
 * prior (streaming VB, Broderick et al. 2013; on the first batch it is the batch CAVI).
 */
export function pgLogitStep(state: PgLogitState, batch: Batch, workspace: PgLogitWorkspace): UpdateStats {
  if (workspace.labels.length < batch.n) workspace.labels = new Float64Array(batch.n);
  const y = signedLabels(batch, workspace.labels);
  if (state.settings.mode === 'svi') {
    pgLogitSviStep(state, batch.x, y, batch.n, batch.weights, workspace);
    return { records: batch.n, iterations: 1 };
  }
  const prior = { mean: state.mean, precision: state.precision, shift: state.shift, logdetPrecision: logDetCholesky(state.factor, state.dim) };
  const fit = pgLogitCavi(prior, batch.x, y, batch.n, state.dim, state.settings, batch.weights);
  state.shift.set(fit.shift);
  state.precision.set(fit.precision);
  state.factor.set(fit.factor);
  state.mean.set(fit.mean);
  state.records += batch.n;
  state.elbo = fit.elbo;
  state.iterations = fit.iterations;
  return { records: batch.n, objective: fit.elbo, iterations: fit.iterations };
}
