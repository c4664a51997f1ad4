import type { Batch } from '../src/core/batch.js';
import type { OnlineModel, UpdateStats } from '../src/core/online-model.js';
import type { Predictive } from '../src/core/predictive.js';
import { VbstreamError } from '../src/core/vbstream-error.js';
import type { LearnOutcome, RecordScores, Rejection } from './learn-outcome.js';
import { typedError } from './typed-error.js';

function gather(batch: Batch, keep: readonly number[]): Batch {
  const { d } = batch;
  const x = new Float64Array(keep.length * d);
  const y = new Float64Array(keep.length);
  const weights = batch.weights === undefined ? undefined : new Float64Array(keep.length);
  keep.forEach((i, k) => {
    x.set(batch.x.subarray(i * d, i * d + d), k * d);
    y[k] = batch.y[i];
    if (weights !== undefined) weights[k] = batch.weights![i];
  });
  return weights === undefined ? { x, y, n: keep.length, d, firstRow: 1 } : { x, y, n: keep.length, d, weights, firstRow: 1 };
}

function scoreBatch(model: OnlineModel, batch: Batch): RecordScores {
  const { n, d } = batch;
  const mean = new Float64Array(n).fill(Number.NaN);
  const variance = new Float64Array(n).fill(Number.NaN);
  const logLoss = new Float64Array(n).fill(Number.NaN);
  let kind: Predictive['kind'] | undefined;
  if (d === model.dim) {
    for (let i = 0; i < n; i++) {
      let predictive: Predictive;
      try {
        predictive = model.predict(batch.x, i * d);
      } catch {
        continue;
      }
      kind = predictive.kind;
      mean[i] = predictive.mean;
      variance[i] = predictive.variance;
      logLoss[i] = -predictive.logProb(batch.y[i]);
    }
  }
  return { kind: kind ?? 'gaussian', mean, variance, logLoss };
}

/**
 * Learns one batch through the contract, refusing bad records one by one instead of the whole
 * batch: when `update` throws an input or shape error located at a row, the model is untouched
 * (the contract validates first), so that row is set aside and the rest is tried again as one
 * batch; an error with no row refuses every record. Other errors (numerical, …) propagate.
 * `rows[i]` is record i's stream row, used to restate the errors. With `evaluate`, every record
 * is first scored against the model as it was before the batch (test-then-train).
 */
export function applyBatch(model: OnlineModel, batch: Batch, rows: ArrayLike<number>, evaluate: boolean): LearnOutcome {
  const start = performance.now();
  const scores = evaluate ? scoreBatch(model, batch) : undefined;
  let keep = Array.from({ length: batch.n }, (_, i) => i);
  const rejected: Rejection[] = [];
  const relocate = (error: VbstreamError, index: number): Rejection => ({
    index,
    error: typedError(error.kind, error.reason, { ...error.location, row: rows[index] }, error.retriable, error),
  });
  let stats: UpdateStats = { records: 0 };
  while (keep.length > 0) {
    try {
      stats = model.update(keep.length === batch.n ? { ...batch, firstRow: 1 } : gather(batch, keep));
      break;
    } catch (error) {
      if (!(error instanceof VbstreamError) || (error.kind !== 'input' && error.kind !== 'shape')) throw error;
      const row = error.location.row;
      if (row !== undefined && Number.isInteger(row) && row >= 1 && row <= keep.length) {
        rejected.push(relocate(error, keep[row - 1]));
        keep = keep.filter((_, k) => k !== row - 1);
      } else {
        for (const index of keep) rejected.push(relocate(error, index));
        keep = [];
      }
    }
  }
  if (scores !== undefined) for (const { index } of rejected) { scores.mean[index] = Number.NaN; scores.variance[index] = Number.NaN; scores.logLoss[index] = Number.NaN; }
  rejected.sort((a, b) => a.index - b.index);
  return { stats, recordsSeen: model.recordsSeen, rejected, scores, durationMs: performance.now() - start };
}
