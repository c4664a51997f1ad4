import { featureProblem } from '../core/feature-problem.js';
import { InputError } from '../core/input-error.js';
import { maxAbsInputOf } from '../core/max-abs-input-of.js';
import { ShapeError } from '../core/shape-error.js';

/** The bound on |context[i]|: the arm models' default `maxAbsInput`, which their updates check too. */
const MAX_ABS_CONTEXT = maxAbsInputOf(undefined);

/**
 * Checks a bandit context before anything is drawn or logged: exactly `dim` features
 * ({@link ShapeError}), each finite and at most the default `maxAbsInput` (1e12) in magnitude
 * ({@link InputError} naming the first bad one, `context[i]`, and its value).
 */
export function checkContext(context: Float64Array, dim: number): void {
  if (context.length !== dim) throw new ShapeError(`context has ${context.length} features but the policy has ${dim}`, { field: 'context', value: context.length });
  for (let i = 0; i < dim; i++) {
    const reason = featureProblem(context[i], MAX_ABS_CONTEXT);
    if (reason !== undefined) throw new InputError(reason, { field: `context[${i}]`, value: context[i] });
  }
}
