import { allWithin } from '../linalg/all-within.js';
import type { Batch } from './batch.js';
import { featureProblem } from './feature-problem.js';
import type { InputProblem } from './input-problem.js';
import { labelProblem } from './label-problem.js';
import { outOfRangeReason } from './out-of-range-reason.js';
import { ShapeError } from './shape-error.js';
import type { Task } from './task.js';

/** The answer for a clean batch (shared: no allocation per update). */
const NO_PROBLEMS: InputProblem[] = Object.freeze([]) as unknown as InputProblem[];

/** What a model accepts: its label coding, whether record weights may differ from 1, and the largest |value| of a feature, label or weight. */
export interface BatchRules {
  readonly task: Task;
  /** Whether weights other than 1 are honoured; when false a weight ≠ 1 is a problem of its row. */
  readonly weights: boolean;
  /** The largest |value| accepted (`InputLimits.maxAbsInput`). */
  readonly maxAbsInput: number;
}

/**
 * Every bad record of a batch in one pass: features that are not finite or beyond `maxAbsInput`,
 * labels outside the task's coding or beyond `maxAbsInput`, weights that are negative, non-finite,
 * beyond `maxAbsInput` or (for families without weights) not 1. Rows are 1-based,
 * offset by `batch.firstRow`; columns are 1-based feature indices, `y` or `weight`. One problem per
 * row (the first found). A batch whose declared shape does not fit `dim` or its arrays throws
 * {@link ShapeError} instead: no row of it can be trusted. With `stage`, X is left copied into the dense kernels
 * (`DenseKernels.stage`; the caller unstages it when done).
 */
export function findBatchProblems(batch: Batch, dim: number, rules: BatchRules, stage = false): InputProblem[] {
  const { x, y, n, d, weights } = batch;
  if (!Number.isInteger(n) || n < 0) throw new ShapeError('batch size must be a non-negative integer', { field: 'n', value: n });
  if (d !== dim) throw new ShapeError(`batch has ${d} features but the model has ${dim}`, { field: 'd', value: d });
  if (x.length < n * d) throw new ShapeError(`x holds ${x.length} values, fewer than n*d = ${n * d}`, { field: 'x' });
  if (y.length < n) throw new ShapeError(`y holds ${y.length} labels, fewer than n = ${n}`, { field: 'y' });
  if (weights !== undefined && weights.length < n) throw new ShapeError(`weights holds ${weights.length} values, fewer than n = ${n}`, { field: 'weights' });
  const firstRow = batch.firstRow ?? 1;
  const { maxAbsInput } = rules;
  let problems: InputProblem[] | undefined;
  // One flat check of all the features first ({@link allWithin}, with `stage` leaving X in the dense kernels for the
  // update's XᵀX); only when it fails does the row-by-row scan below look for each row's first bad value.
  const featuresClean = allWithin(x, n * d, maxAbsInput, stage);
  for (let i = 0; i < n; i++) {
    const row = firstRow + i;
    const base = i * d;
    let problem: InputProblem | undefined;
    for (let j = 0; j < d && !featuresClean; j++) {
      const v = x[base + j];
      if (!(Math.abs(v) <= maxAbsInput)) {
        problem = { reason: featureProblem(v, maxAbsInput)!, location: { row, column: j + 1, value: v } };
        break;
      }
    }
    if (problem === undefined) {
      const reason = labelProblem(rules.task, y[i], maxAbsInput);
      if (reason !== undefined) problem = { reason, location: { row, column: 'y', value: y[i] } };
    }
    if (problem === undefined && weights !== undefined) {
      const w = weights[i];
      if (!(Number.isFinite(w) && w >= 0)) problem = { reason: 'weight must be finite and non-negative', location: { row, column: 'weight', value: w } };
      else if (w > maxAbsInput) problem = { reason: outOfRangeReason('weight', maxAbsInput), location: { row, column: 'weight', value: w } };
      else if (!rules.weights && w !== 1) problem = { reason: 'this family does not support record weights other than 1', location: { row, column: 'weight', value: w } };
    }
    if (problem !== undefined) (problems ??= []).push(problem);
  }
  return problems ?? NO_PROBLEMS;
}
