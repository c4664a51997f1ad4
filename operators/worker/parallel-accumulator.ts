import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Batch } from '../../src/core/batch.js';
import { ConfigError } from '../../src/core/config-error.js';
import type { InputLimits } from '../../src/core/input-limits.js';
import type { JsonValue } from '../../src/core/model-snapshot.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { getFamily } from '../../src/registry.js';
import { modelWorkerPath } from './model-worker-path.js';
import { packBatch } from './pack-batch.js';
import { reviveReply } from './revive-reply.js';
import { unpackSnapshot } from './unpack-snapshot.js';
import type { WorkerTask } from './worker-task.js';

/**
 * Fan-out for additive families (sufficient statistics: vb-linear, DIRECT): each batch is absorbed
 * by a fresh model of the same family and options in one of `threads` workers, and the results are
 * merged into the target in batch order — equal to the target fed every batch wherever the family's
 * `merge` is exact (up to floating-point summation order).
 */
export class ParallelAccumulator {
  private readonly pool: Piscina;

  constructor(threads = Math.max(1, availableParallelism() - 1)) {
    this.pool = new Piscina({ filename: modelWorkerPath(), minThreads: 1, maxThreads: threads });
  }

  /** Absorbs `batches` into `target` (created with `options` and `limits`) through the workers. */
  async accumulate(target: OnlineModel, batches: readonly Batch[], options?: { readonly [key: string]: JsonValue }, limits?: InputLimits): Promise<void> {
    if (target.merge === undefined) throw new ConfigError(`family ${target.family} has no merge, so its updates cannot fan out`, { field: 'family', value: target.family });
    const parts = await Promise.all(batches.map((batch) => {
      const { packed, transferList } = packBatch(batch, new Float64Array(batch.n));
      const task: WorkerTask = { op: 'accumulate', family: target.family, dim: target.dim, options, limits, batch: packed };
      return this.pool.run(task, { transferList }).then(reviveReply);
    }));
    const family = getFamily(target.family);
    for (const part of parts) target.merge(family.restore(unpackSnapshot(part.snapshot!)));
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
