import type { Batch } from './batch.js';
import { ShapeError } from './shape-error.js';

/**
 * Builds a {@link Batch} from rows of features and labels (convenient off the hot path; streams
 * should fill `Float64Array`s directly). Throws {@link ShapeError} on ragged rows.
 */
export function makeBatch(rows: ArrayLike<ArrayLike<number>>, labels: ArrayLike<number>, options: { weights?: ArrayLike<number>; firstRow?: number } = {}): Batch {
  const n = rows.length;
  if (labels.length !== n) throw new ShapeError(`expected ${n} labels, got ${labels.length}`, { field: 'y' });
  const d = n === 0 ? 0 : rows[0].length;
  const x = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    if (row.length !== d) throw new ShapeError(`expected ${d} features, got ${row.length}`, { row: (options.firstRow ?? 1) + i });
    for (let j = 0; j < d; j++) x[i * d + j] = row[j];
  }
  const batch: Batch = { x, y: Float64Array.from(labels), n, d, firstRow: options.firstRow ?? 1 };
  if (options.weights === undefined) return batch;
  if (options.weights.length !== n) throw new ShapeError(`expected ${n} weights, got ${options.weights.length}`, { field: 'weights' });
  return { ...batch, weights: Float64Array.from(options.weights) };
}
