import type { Batch } from '../../core/batch.js';
import { foldSites } from './fold-sites.js';
import { gaussianPriorFromFactor, type GaussianPrior } from './gaussian-prior.js';
import { naturalRefit } from './natural-refit.js';
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

/** Whether the records seen, going from `records` (> 0) to `records + n`, cross a point of the grid (1 + fraction)^k (always for fraction 0). */
function crossesRefitGrid(records: number, n: number, fraction: number): boolean {
  if (fraction === 0) return true;
  const step = Math.log1p(fraction);
  return Math.floor(Math.log(records + n) / step) > Math.floor(Math.log(records) / step);
}

/**
 * An update after the first under `refit` `natural` (a batch of at most `replay` records): the oldest
 * records that do not leave room for the batch are folded into q_a as sites frozen at the current q
 * ({@link foldSites}), the batch joins the buffer, then either (while no record has left the buffer,
 * and when the records seen cross the next point of the grid (1 + `refitFraction`)^k) q is refitted on
 * the whole buffer with q_a as the prior,
 * or the batch alone is fitted with the current q as the prior; both by {@link naturalRefit} warm-started at q.
 */
function naturalStep(family: string, state: ViPerState, batch: Batch, workspace: ViPerWorkspace): void {
  const { x, n, weights } = batch;
  const overflow = state.buffered + n - state.settings.replay;
  if (overflow > 0) foldSites(family, state, workspace, overflow);
  append(state, x, workspace.labels, weights, n);
  const whole = state.records + n <= state.settings.replay || crossesRefitGrid(state.records, n, state.settings.refitFraction);
  const prior = whole ? anchorPrior(state, workspace, state.records + n - state.buffered) : gaussianPriorFromFactor(state.mu, state.factor, state.dim);
  const fit = naturalRefit(family, state.settings, workspace, prior, state.mu, state.factor, state.bufferX, state.bufferY, state.bufferWeights,
    whole ? 0 : state.buffered - n, state.buffered);
  state.objective = fit.objective;
  state.iterations = fit.iterations;
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
 * the current q as the prior. Under `refit` `natural` (default for full covariance) every update
 * after the first is a {@link naturalStep} instead, and the records a big batch pushes out of the
 * buffer are folded as sites. `state.records` is advanced by the caller afterwards.
 */
export function sdaStep(family: string, state: ViPerState, batch: Batch, workspace: ViPerWorkspace): void {
  const { x, n, weights } = batch;
  const { settings } = state;
  const labels = workspace.labels;
  const capacity = settings.replay;
  const natural = settings.refit === 'natural';
  if (n > capacity) {
    if (state.buffered > 0) {
      if (natural) foldSites(family, state, workspace, state.buffered);
      else evict(family, state, workspace, state.buffered);
    }
    const prior = anchorPrior(state, workspace, state.records);
    const fit = sdaFit(family, settings, workspace, prior, state.mu, state.factor, x, labels, n, weights);
    state.objective = fit.objective;
    state.iterations = fit.iterations;
    state.anchorMean.set(state.mu);
    state.anchorFactor.set(state.factor);
    if (settings.covariance === 'diagonal' && capacity > 0) sdaFit(family, settings, workspace.fold, prior, state.anchorMean, state.anchorFactor, x, labels, n, weights);
    return;
  }
  if (natural && state.records > 0) {
    naturalStep(family, state, batch, workspace);
    return;
  }
  if (state.buffered + n > capacity) evict(family, state, workspace, Math.min(state.buffered, state.buffered + n - Math.floor(capacity / 2)));
  append(state, x, labels, weights, n);
  const prior = anchorPrior(state, workspace, state.records + n - state.buffered);
  const fit = sdaFit(family, settings, workspace, prior, state.mu, state.factor, state.bufferX, state.bufferY, state.buffered, state.bufferWeights);
  state.objective = fit.objective;
  state.iterations = fit.iterations;
}
