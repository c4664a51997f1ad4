import type { Batch } from '../src/core/batch.js';
import type { ModelSnapshot } from '../src/core/model-snapshot.js';
import type { LearnOutcome } from './learn-outcome.js';

/**
 * Where a model lives for the `learn` operator: in this thread ({@link InProcessLearner}) or in a
 * worker ({@link WorkerLearner}). Calls are applied in the order they are made.
 */
export interface Learner {
  readonly family: string;
  readonly dim: number;
  /** Records the model has absorbed, as of the last completed call. */
  readonly recordsSeen: number;
  /** Learns a batch (see `applyBatch`); `rows[i]` is record i's stream row. */
  learn(batch: Batch, rows: Float64Array, evaluate: boolean): LearnOutcome | Promise<LearnOutcome>;
  /** The model's state after every batch learned so far. */
  snapshot(): ModelSnapshot | Promise<ModelSnapshot>;
}
