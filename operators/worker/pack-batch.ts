import type { Batch } from '../../src/core/batch.js';
import { transferable } from './transferable.js';
import type { PackedBatch } from './worker-task.js';

/** A batch ready to cross to a worker, and the buffers to transfer (the batch's own arrays are detached when they span their buffers). */
export function packBatch(batch: Batch, rows: Float64Array): { packed: PackedBatch; transferList: ArrayBuffer[] } {
  const x = transferable(batch.x.length === batch.n * batch.d ? batch.x : batch.x.subarray(0, batch.n * batch.d));
  const y = transferable(batch.y.length === batch.n ? batch.y : batch.y.subarray(0, batch.n));
  const r = transferable(rows);
  const weights = batch.weights === undefined ? undefined : transferable(batch.weights);
  const packed: PackedBatch = weights === undefined ? { x, y, n: batch.n, d: batch.d, rows: r } : { x, y, weights, n: batch.n, d: batch.d, rows: r };
  const transferList = [x.buffer, y.buffer, r.buffer, ...(weights === undefined ? [] : [weights.buffer])] as ArrayBuffer[];
  return { packed, transferList: [...new Set(transferList)] };
}
