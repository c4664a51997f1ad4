import type { Batch } from '../src/core/batch.js';
import type { InputProblem } from '../src/core/input-problem.js';
import type { OnlineModel, UpdateStats } from '../src/core/online-model.js';
import type { Predictive } from '../src/core/predictive.js';
import { scoreByPredict } from '../src/core/score-by-predict.js';
import { VbstreamError } from '../src/core/vbstream-error.js';
import type { LearnOutcome, RecordScores, Rejection } from './learn-outcome.js';
import { typedError } from './typed-error.js';

/** A model that can list every bad row of a batch in one pass and be copied (the model shell). */
interface Checkable extends OnlineModel {
  validate(batch: Batch): InputProblem[];
  clone(): OnlineModel;
}

function isCheckable(model: OnlineModel): model is Checkable {
  return typeof (model as Partial<Checkable>).validate === 'function' && typeof (model as Partial<Checkable>).clone === 'function';
}

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

/** The test-then-train scores of a batch against the model as it is: by the model's `scoreInto` where it has one, else a `predict` per record (NaN for a record it refuses, or every record of a batch of another width). */
function scoreBatch(model: OnlineModel, batch: Batch): RecordScores {
  const { n, d } = batch;
  const mean = new Float64Array(n);
  const variance = new Float64Array(n);
  const logLoss = new Float64Array(n);
  let kind: Predictive['kind'] | undefined;
  if (d !== model.dim) {
    mean.fill(Number.NaN);
    variance.fill(Number.NaN);
    logLoss.fill(Number.NaN);
  } else {
    kind = model.scoreInto !== undefined ? model.scoreInto(batch.x, batch.y, n, mean, variance, logLoss) : scoreByPredict(model, batch.x, batch.y, n, mean, variance, logLoss);
  }
  return { kind: kind ?? 'gaussian', mean, variance, logLoss };
}

/**
 * Learns one batch through the contract, refusing bad records instead of the whole batch, so the
 * model ends exactly as if the bad records had never come:
 * - the batch goes to `update` whole (which validates it); if that fails, the rows the model's
 *   validation refuses (non-finite, a label outside the family's coding, …) are found in one pass
 *   (`validate`; for a model without it, one row per failed `update`) and set aside;
 * - if the rest cannot be learned numerically (an update the family cannot take finitely, e.g. a
 *   value of 1e200: the model rolls back and throws `NumericalError`), each record is tried alone on
 *   a copy of the model, the ones that fail alone are refused with that error, and the others are
 *   learned as one batch (if even that fails, they are all refused).
 * Other errors propagate. `rows[i]` is record i's stream row, used to restate the errors. With
 * `evaluate`, every record is first scored against the model as it was before the batch.
 */
export function applyBatch(model: OnlineModel, batch: Batch, rows: ArrayLike<number>, evaluate: boolean): LearnOutcome {
  const start = performance.now();
  const scores = evaluate ? scoreBatch(model, batch) : undefined;
  const rejected: Rejection[] = [];
  const relocate = (error: VbstreamError, index: number): Rejection => ({
    index,
    error: typedError(error.kind, error.reason, { ...error.location, row: rows[index] }, error.retriable, error),
  });
  const whole = batch.firstRow === 1 ? batch : { ...batch, firstRow: 1 };
  const subset = (indices: readonly number[]): Batch => (indices.length === batch.n ? whole : gather(batch, indices));
  let stats: UpdateStats = { records: 0 };
  /** The records still to learn; undefined for all of them (the usual case: one update, which validates them, and no list). */
  let keep: number[] | undefined = batch.n === 0 ? [] : undefined;
  let validated = false;
  while (keep === undefined || keep.length > 0) {
    try {
      stats = model.update(keep === undefined ? whole : subset(keep));
      break;
    } catch (error) {
      keep ??= Array.from({ length: batch.n }, (_, i) => i);
      if (!validated && isCheckable(model)) {
        validated = true;
        const problems = model.validate(whole);
        if (problems.length > 0) {
          const bad = new Set<number>();
          for (const { reason, location } of problems) {
            const index = (location.row as number) - 1;
            bad.add(index);
            rejected.push(relocate(typedError('input', reason, location), index));
          }
          keep = keep.filter((i) => !bad.has(i));
          continue;
        }
      }
      if (!(error instanceof VbstreamError)) throw error;
      if (error.kind === 'numerical' && isCheckable(model)) {
        const failing = keep.filter((i) => {
          try {
            model.clone().update(subset([i]));
            return false;
          } catch (alone) {
            if (!(alone instanceof VbstreamError)) throw alone;
            rejected.push(relocate(alone, i));
            return true;
          }
        });
        if (failing.length === 0) {
          for (const index of keep) rejected.push(relocate(error, index));
          keep = [];
        } else {
          keep = keep.filter((i) => !failing.includes(i));
        }
        continue;
      }
      if (error.kind !== 'input' && error.kind !== 'shape') throw error;
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
