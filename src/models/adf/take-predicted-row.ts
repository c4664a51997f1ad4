import type { PredictedRow } from './predicted-row.js';

/** Whether `row` holds the features `x[offset .. offset+d)` and q has not changed since (then it is cleared: it is used once). */
export function takePredictedRow(row: PredictedRow, x: Float64Array, offset: number): boolean {
  if (!row.valid) return false;
  row.valid = false;
  const d = row.x.length;
  for (let i = 0; i < d; i++) if (!Object.is(row.x[i], x[offset + i])) return false;
  return true;
}
