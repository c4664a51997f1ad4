import type { Batch } from './batch.js';
import { InputError } from './input-error.js';

/**
 * Maps binary labels to the ±1 coding the logistic updates use (y = 2·y₀₁ − 1): 1 → +1 and 0 or
 * −1 → −1. Any other value throws {@link InputError} with its row, before anything is written, so a
 * model can call this first and stay untouched on bad input. Writes into `out` (length ≥ n).
 */
export function signedLabels(batch: Batch, out: Float64Array): Float64Array {
  const firstRow = batch.firstRow ?? 1;
  for (let i = 0; i < batch.n; i++) {
    const label = batch.y[i];
    if (label === 1) out[i] = 1;
    else if (label === 0 || label === -1) out[i] = -1;
    else throw new InputError('binary label must be 0/1 or -1/1', { row: firstRow + i, column: 'y', value: label });
  }
  return out;
}
