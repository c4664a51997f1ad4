import { checkFeatures } from '../core/check-features.js';
import { ShapeError } from '../core/shape-error.js';

/** Checks a bandit context: exactly `dim` finite features (ShapeError, InputError otherwise). */
export function checkContext(context: Float64Array, dim: number): void {
  if (context.length !== dim) throw new ShapeError(`context has ${context.length} features but the policy has ${dim}`, { field: 'context', value: context.length });
  checkFeatures(context, 0, dim);
}
