import { featureProblem } from './feature-problem.js';
import { InputError } from './input-error.js';
import type { InputProblem } from './input-problem.js';
import { ShapeError } from './shape-error.js';

/**
 * Checks one record's features before a prediction: `x` must hold `dim` values from `offset` (a
 * non-negative integer), all finite and at most `maxAbsInput` in magnitude. Throws {@link ShapeError}
 * for a short vector or a bad offset and {@link InputError} listing every bad column (1-based), as
 * `update` does for a batch.
 */
export function checkFeatures(x: ArrayLike<number>, offset: number, dim: number, maxAbsInput: number): void {
  if (!Number.isInteger(offset) || offset < 0) throw new ShapeError('offset must be a non-negative integer', { field: 'offset', value: offset });
  if (x.length < offset + dim) throw new ShapeError(`x holds ${x.length - offset} values from offset ${offset}, the model has ${dim} features`, { field: 'x', value: x.length });
  let problems: InputProblem[] | undefined;
  for (let j = 0; j < dim; j++) {
    const v = x[offset + j];
    const reason = featureProblem(v, maxAbsInput);
    if (reason !== undefined) (problems ??= []).push({ reason, location: { column: j + 1, value: v } });
  }
  if (problems !== undefined) {
    const [first] = problems;
    throw new InputError(problems.length === 1 ? first.reason : `${first.reason} (and ${problems.length - 1} more bad feature${problems.length === 2 ? '' : 's'})`, first.location, { problems });
  }
}
