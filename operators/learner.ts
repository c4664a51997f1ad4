import type { Batch } from '../src/core/batch.js';
import type { ModelSnapshot } from '../src/core/model-snapshot.js';
import type { EncodedValues } from './worker/encoded-values.js';
import type { DecoderSpec } from './worker/worker-decoders.js';
import type { LearnOutcome } from './learn-outcome.js';
import type { DecodedValues } from './worker/worker-task.js';

/** What learning encoded records did: the decoded batch's labels, rows and indices among the encoded records, the records the decoder refused, and the learn outcome over the decoded batch (absent when none decoded). */
export interface EncodedLearnOutcome extends DecodedValues {
  readonly outcome: LearnOutcome | undefined;
}

/**
 * Where a model lives for the `learn` operator: in this thread ({@link InProcessLearner}) or in a
 * worker ({@link WorkerLearner}). Calls are applied in the order they are made; `learn` makes up to
 * `LEARN_WINDOW` of them before the first is answered, and a snapshot covers every call made before it.
 */
export interface Learner {
  readonly family: string;
  readonly dim: number;
  /** Records the model has absorbed, as of the last completed call. */
  readonly recordsSeen: number;
  /** Learns a batch (see `applyBatch`); `rows[i]` is record i's stream row. */
  learn(batch: Batch, rows: Float64Array, evaluate: boolean): LearnOutcome | Promise<LearnOutcome>;
  /** Decodes encoded records where the model lives and learns the good ones (a worker learner started with a decoding entry), in one update per `minibatch` encoded records when given. */
  learnEncoded?(values: EncodedValues, decoder: DecoderSpec, evaluate: boolean, minibatch?: number): Promise<EncodedLearnOutcome>;
  /** The model's state after every batch learned so far. */
  snapshot(): ModelSnapshot | Promise<ModelSnapshot>;
}
