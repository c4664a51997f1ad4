import type { Batch } from '../../core/batch.js';
import { gaussianPriorFromFactor, type GaussianPrior } from './gaussian-prior.js';
import { sdaFit } from './sda-fit.js';
import type { ViPerState } from './state.js';
import type { ViPerWorkspace } from './workspace.js';

/** The prior of a fit on the buffer: q_a, or the model's prior while no record has left the buffer. */
function anchorPrior(state: ViPerState, workspace: ViPerWorkspace, folded: number): GaussianPrior {
  return folded === 0 ? workspace.prior : gaussianPriorFromFactor(state.anchorMean, state.anchorFactor, state.dim);
}

/** Copies the batch's n records (labels ±1 in `labels`, `weights` or 1) to the end of the buffer. */
function append(state: ViPerState, x: Float64Array, labels: Float64Array, weights: Float64Array | undefined, n: number): void {
  const { dim: d, bufferX, bufferY, bufferWeights } = state;
  const at = state.buffered;
  bufferX.set(x.subarray(0, n * d), at * d);
  bufferY.set(labels.subarray(0, n), at);
  if (weights === undefined) bufferWeights.fill(1, at, at + n);
  else bufferWeights.set(weights.subarray(0, n), at);
  state.buffered += n;
}

/**
 * Folds the buffer's oldest `count` records into q_a (a streaming step: the fit on them with q_a as
 * the prior, started at q_a, with full covariance whatever q's form) and drops them.
 */
function evict(family: string, state: ViPerState, workspace: ViPerWorkspace, count: number): void {
  const { dim: d, settings, bufferX, bufferY, bufferWeights, buffered } = state;
  const prior = anchorPrior(state, workspace, state.records - buffered);
  sdaFit(family, settings, workspace.fold, prior, state.anchorMean, state.anchorFactor, bufferX, bufferY, count, bufferWeights);
  bufferX.copyWithin(0, count * d, buffered * d);
  bufferY.copyWithin(0, count, buffered);
  bufferWeights.copyWithin(0, count, buffered);
  state.buffered -= count;
}

/**
 * Streaming VB with a bounded replay (`sda`; labels ±1 in `workspace.labels`): the batch joins the
 * buffer, q = the fit on the whole buffer with q_a as the prior, warm-started at the current q. While
 * no record has left the buffer, q is the one-batch fit of everything seen (to the fit's tolerance).
 * When the batch does not fit, the oldest records are folded into q_a first, one fit for all of them,
 * down to at most `replay`/2 records before the batch: each fold is an approximation, so folding in
 * chunks of at least `replay`/2 records keeps their number low (measured: KL to the one-batch fit
 * 10–55 % below that of folding only the overflow, one fold per batch). A batch of more than `replay` records is fitted
 * whole on top of q_a (the buffer folded in first), as a one-batch fit is, and becomes part of q_a:
 * the buffer is then empty (for a mean-field q with a replay, q_a is the full-covariance fit of the
 * batch on top of q_a, started at q). With `replay` 0 this is plain streaming VB: each batch fitted once with
 * the current q as the prior. `state.records` is advanced by the caller afterwards.
 */
export function sdaStep(family: string, state: ViPerState, batch: Batch, workspace: ViPerWorkspace): void {
  const { x, n, weights } = batch;
  const { settings } = state;
  const labels = workspace.labels;
  const capacity = settings.replay;
  if (n > capacity) {
    if (state.buffered > 0) evict(family, state, workspace, state.buffered);
    const prior = anchorPrior(state, workspace, state.records);
    const fit = sdaFit(family, settings, workspace, prior, state.mu, state.factor, x, labels, n, weights);
    state.objective = fit.objective;
    state.iterations = fit.iterations;
    state.anchorMean.set(state.mu);
    state.anchorFactor.set(state.factor);
    if (settings.covariance === 'diagonal' && capacity > 0) sdaFit(family, settings, workspace.fold, prior, state.anchorMean, state.anchorFactor, x, labels, n, weights);
    return;
  }
  if (state.buffered + n > capacity) evict(family, state, workspace, Math.min(state.buffered, state.buffered + n - Math.floor(capacity / 2)));
  append(state, x, labels, weights, n);
  const prior = anchorPrior(state, workspace, state.records + n - state.buffered);
  const fit = sdaFit(family, settings, workspace, prior, state.mu, state.factor, state.bufferX, state.bufferY, state.buffered, state.bufferWeights);
  state.objective = fit.objective;
  state.iterations = fit.iterations;
}
