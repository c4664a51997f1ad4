import { InputError, ShapeError } from 'vbstream';

/**
 * A request's feature vector: an array of `dim` finite numbers. Anything else — not an array, the
 * wrong width, a string, null, NaN or ±Infinity (JSON cannot carry them, but a parsed object can) —
 * throws a typed error naming the field and the 1-based column.
 */
export function parseFeatureVector(value: unknown, dim: number, field: string): Float64Array {
  if (!Array.isArray(value)) throw new InputError(`${field} must be an array of ${dim} numbers`, { field, value });
  if (value.length !== dim) throw new ShapeError(`${field} has ${value.length} features, the model has ${dim}`, { field, value: value.length });
  const x = new Float64Array(dim);
  for (let j = 0; j < dim; j++) {
    if (typeof value[j] !== 'number' || !Number.isFinite(value[j])) throw new InputError('feature is not a finite number', { field, column: j + 1, value: value[j] });
    x[j] = value[j];
  }
  return x;
}
