import type { Batch } from '../src/core/batch.js';
import { ShapeError } from '../src/core/shape-error.js';
import type { LabelledRecord } from './labelled-record.js';

/**
 * Packs records into one flat {@link Batch} of width `dim` and their stream rows. A record of
 * another width throws {@link ShapeError} naming its row (the caller routes it aside first).
 */
export function packRecords(records: readonly LabelledRecord[], dim: number): { batch: Batch; rows: Float64Array } {
  const n = records.length;
  const x = new Float64Array(n * dim);
  const y = new Float64Array(n);
  const rows = new Float64Array(n);
  const weighted = records.some((r) => r.weight !== undefined);
  const weights = weighted ? new Float64Array(n) : undefined;
  for (let i = 0; i < n; i++) {
    const record = records[i];
    if (record.x.length !== dim) throw new ShapeError(`record has ${record.x.length} features but the model has ${dim}`, { row: record.row, field: 'x', value: record.x.length });
    x.set(record.x, i * dim);
    y[i] = record.y;
    rows[i] = record.row;
    if (weights !== undefined) weights[i] = record.weight ?? 1;
  }
  const batch: Batch = weights === undefined ? { x, y, n, d: dim, firstRow: 1 } : { x, y, n, d: dim, weights, firstRow: 1 };
  return { batch, rows };
}
