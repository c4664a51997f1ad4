import type { Batch } from './batch.js';
import { findBatchProblems, type BatchRules } from './find-batch-problems.js';
import { InputError } from './input-error.js';
import type { InputProblem } from './input-problem.js';
import { maxAbsInputOf } from './max-abs-input-of.js';

const ANY_IN_RANGE: BatchRules = { task: 'regression', weights: true, maxAbsInput: maxAbsInputOf(undefined) };

/** One {@link InputError} for a list of problems: the first names the location, the message counts the rest. */
export function inputErrorOf(problems: readonly InputProblem[]): InputError {
  const [first] = problems;
  const reason = problems.length === 1 ? first.reason : `${first.reason} (and ${problems.length - 1} more bad row${problems.length === 2 ? '' : 's'})`;
  return new InputError(reason, first.location, { problems });
}

/**
 * Checks a batch before a model touches its state: the declared shape, the array lengths, the
 * width against the model's `dim` ({@link ShapeError}), and every record against `rules` (by
 * default: finite features, labels and non-negative weights, none beyond the default
 * `maxAbsInput`). All bad rows are found in one pass and thrown as one {@link InputError} whose `problems` list each row (1-based, offset by
 * `batch.firstRow`) and column, so an update either applies whole or not at all.
 */
export function validateBatch(batch: Batch, dim: number, rules: BatchRules = ANY_IN_RANGE): void {
  const problems = findBatchProblems(batch, dim, rules);
  if (problems.length > 0) throw inputErrorOf(problems);
}
