import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { signedLabels } from '../../core/signed-labels.js';
import { replayJaakkolaJordanSites } from '../../likelihoods/replay-jaakkola-jordan-sites.js';
import { logDetCholesky } from '../../linalg/log-det-cholesky.js';
import { pgLogitCavi } from './cavi.js';
import { refreshMoments } from './refresh-moments.js';
import type { PgLogitState } from './state.js';
import { pgLogitSviStep } from './svi-step.js';
import type { PgLogitWorkspace } from './workspace.js';

/**
 * Absorbs a checked batch (labels 0/1 or ±1): in `svi` mode one SVI step (Algorithm 3, see
 * {@link pgLogitSviStep}); in `sda` mode CAVI (Algorithm 2) on the replayed window with the batch
 * added, the base (the prior and the frozen sites of older records) as prior and the window's ξ as the
 * start (see {@link replayJaakkolaJordanSites}). With `replay` 0 this is streaming VB (Broderick et
 * al. 2013): CAVI on the batch with the current q(β) as prior; on the first batch it is the batch CAVI.
 */
export function pgLogitStep(state: PgLogitState, batch: Batch, workspace: PgLogitWorkspace): UpdateStats {
  if (workspace.labels.length < batch.n) workspace.labels = new Float64Array(batch.n);
  const y = signedLabels(batch, workspace.labels);
  if (state.settings.mode === 'svi') {
    pgLogitSviStep(state, batch.x, y, batch.n, batch.weights, workspace);
    return { records: batch.n, iterations: 1 };
  }
  const d = state.dim;
  const rows = Math.max(batch.n, state.settings.replay);
  if (workspace.rowScale.length < rows) {
    workspace.rowScale = new Float64Array(rows);
    workspace.variances = new Float64Array(rows);
  }
  if (workspace.xi.length < batch.n) workspace.xi = new Float64Array(batch.n);
  const { baseFactor, baseMean } = workspace;
  const target = { precision: state.basePrecision, shift: state.baseShift, labelShift: true, mean: state.settings.replay > 0 ? state.mean : undefined, rowScale: workspace.rowScale, bound: 0 };
  replayJaakkolaJordanSites(state.sites, d, batch.x, y, batch.weights, batch.n, target, workspace.xi, (x, ySigned, weights, xi, n) => {
    refreshMoments(state.baseShift, state.basePrecision, d, baseFactor, baseMean);
    const prior = { mean: baseMean, precision: state.basePrecision, shift: state.baseShift, logdetPrecision: logDetCholesky(baseFactor, d) };
    const fit = pgLogitCavi(prior, x, ySigned, n, d, state.settings, weights, xi);
    xi.set(fit.siteXi);
    state.shift.set(fit.shift);
    state.precision.set(fit.precision);
    state.factor.set(fit.factor);
    state.mean.set(fit.mean);
    state.elbo = fit.elbo;
    state.iterations = fit.iterations;
  });
  state.records += batch.n;
  return { records: batch.n, objective: state.elbo, iterations: state.iterations };
}
