import type { Batch } from './batch.js';
import { InputError } from './input-error.js';
import { ShapeError } from './shape-error.js';

/**
 * Checks a batch before a model touches its state: the declared shape, the array lengths, the
 * width against the model's `dim`, and that every feature, label and weight is finite (weights
 * also non-negative). Throws {@link ShapeError} or {@link InputError} naming the row (1-based,
 * offset by `batch.firstRow`) and column, so an update either applies whole or not at all.
 */
export function validateBatch(batch: Batch, dim: number): void {
  const { x, y, n, d, weights } = batch;
  if (!Number.isInteger(n) || n < 0) throw new ShapeError('batch size must be a non-negative integer', { field: 'n', value: n });
  if (d !== dim) throw new ShapeError(`batch has ${d} features but the model has ${dim}`, { field: 'd', value: d });
  if (x.length < n * d) throw new ShapeError(`x holds ${x.length} values, fewer than n*d = ${n * d}`, { field: 'x' });
  if (y.length < n) throw new ShapeError(`y holds ${y.length} labels, fewer than n = ${n}`, { field: 'y' });
  if (weights !== undefined && weights.length < n) throw new ShapeError(`weights holds ${weights.length} values, fewer than n = ${n}`, { field: 'weights' });
  const firstRow = batch.firstRow ?? 1;
  for (let i = 0; i < n; i++) {
    const base = i * d;
    for (let j = 0; j < d; j++) {
      const v = x[base + j];
      if (!Number.isFinite(v)) throw new InputError('feature is not finite', { row: firstRow + i, column: j + 1, value: v });
    }
    if (!Number.isFinite(y[i])) throw new InputError('label is not finite', { row: firstRow + i, column: 'y', value: y[i] });
    if (weights !== undefined && !(Number.isFinite(weights[i]) && weights[i] >= 0)) {
      throw new InputError('weight must be finite and non-negative', { row: firstRow + i, column: 'weight', value: weights[i] });
    }
  }
}
