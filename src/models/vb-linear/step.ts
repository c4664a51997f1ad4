import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { gramAccumulate } from '../../linalg/gram-accumulate.js';
import type { VbLinearState } from './state.js';

/**
 * Adds a (validated) batch to the sufficient statistics: XᵀX += Xᵀ·W·X, Xᵀy += Xᵀ·W·y,
 * yᵀy += yᵀ·W·y, N += Σw (Drugowitsch eq. 7–10 need nothing else). Rows are added in order, so a
 * stream cut into batches anywhere gives bit-identical statistics.
 */
export function vbLinearStep(state: VbLinearState, batch: Batch): UpdateStats {
  const { x, y, n, d, weights } = batch;
  gramAccumulate(x, n, d, state.xtx, 1, weights);
  for (let r = 0; r < n; r++) {
    const w = weights === undefined ? 1 : weights[r];
    const wy = w * y[r];
    const base = r * d;
    for (let j = 0; j < d; j++) state.xty[j] += wy * x[base + j];
    state.yty += wy * y[r];
    state.n += w;
  }
  state.records += n;
  return { records: n };
}
