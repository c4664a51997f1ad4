import type { Batch } from '../../core/batch.js';
import type { Rng } from '../../rng/rng.js';

/**
 * How minibatches are drawn from a fixed dataset: `iid` — each step |B| distinct rows drawn afresh
 * (Algorithm 3's "sample a data point randomly" for |B| = 1); `permutation` — a fresh random
 * permutation each epoch cut into ⌈n/|B|⌉ disjoint batches (markedly closer to CAVI for the same
 * number of steps, see the pgvb fixture README); `cyclic` — rows in file order, step t using rows
 * ((t − 1)|B| + k) mod n (deterministic, the fixtures' `svi_cyclic`).
 */
export type MinibatchSampling = 'iid' | 'permutation' | 'cyclic';

/**
 * Draws minibatches of `batchSize` rows from a row-major dataset into one reused buffer: `next()`
 * returns the same {@link Batch} object each time, overwritten (copy it to keep it). Nothing is
 * allocated after construction.
 */
export class MinibatchSampler {
  private readonly order: Int32Array;
  private readonly batch: { x: Float64Array; y: Float64Array; n: number; d: number; firstRow: number };
  private cursor = 0;

  constructor(private readonly x: Float64Array, private readonly y: Float64Array, private readonly rows: number, private readonly d: number,
    private readonly batchSize: number, private readonly sampling: MinibatchSampling, private readonly rng: Rng) {
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > rows) throw new RangeError(`batch size must be an integer in [1, ${rows}], got ${batchSize}`);
    this.order = Int32Array.from({ length: rows }, (_, i) => i);
    this.batch = { x: new Float64Array(batchSize * d), y: new Float64Array(batchSize), n: batchSize, d, firstRow: 1 };
  }

  /** Steps in one pass over the data: ⌈n/|B|⌉. */
  get stepsPerEpoch(): number {
    return Math.ceil(this.rows / this.batchSize);
  }

  next(): Batch {
    const { batch, order, rows, batchSize } = this;
    let size = batchSize;
    if (this.sampling === 'iid') {
      for (let k = 0; k < size; k++) {
        const j = k + Math.floor(this.rng.nextDouble() * (rows - k));
        const swap = order[k];
        order[k] = order[j];
        order[j] = swap;
      }
      this.copyRows(0, size);
    } else if (this.sampling === 'permutation') {
      if (this.cursor === 0) {
        for (let k = rows - 1; k > 0; k--) {
          const j = Math.floor(this.rng.nextDouble() * (k + 1));
          const swap = order[k];
          order[k] = order[j];
          order[j] = swap;
        }
      }
      size = Math.min(batchSize, rows - this.cursor);
      this.copyRows(this.cursor, size);
      this.cursor = this.cursor + size === rows ? 0 : this.cursor + size;
    } else {
      for (let k = 0; k < size; k++) order[k] = (this.cursor + k) % rows;
      this.cursor = (this.cursor + size) % rows;
      this.copyRows(0, size);
    }
    batch.n = size;
    return batch;
  }

  private copyRows(start: number, size: number): void {
    const { d, batch } = this;
    for (let k = 0; k < size; k++) {
      const row = this.order[start + k];
      for (let j = 0; j < d; j++) batch.x[k * d + j] = this.x[row * d + j];
      batch.y[k] = this.y[row];
    }
  }
}
