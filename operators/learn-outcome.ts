import type { UpdateStats } from '../src/core/online-model.js';
import type { Predictive } from '../src/core/predictive.js';
import type { VbstreamError } from '../src/core/vbstream-error.js';

/** Predictions made for each record of a batch *before* the batch was learned (test-then-train). */
export interface RecordScores {
  readonly kind: Predictive['kind'];
  /** Predictive mean (p(y = 1) for a binary label), per batch row; NaN for rejected rows. */
  readonly mean: Float64Array;
  readonly variance: Float64Array;
  /** −log p(y | x, data before the batch), per batch row; NaN for rejected rows. */
  readonly logLoss: Float64Array;
}

/** A batch row the model refused (bad input); the model is untouched by it. */
export interface Rejection {
  /** Index of the record in its batch. */
  readonly index: number;
  /** The typed error, located at the record's stream row. */
  readonly error: VbstreamError;
}

/** What learning one batch did: the family's stats, the running count, refused rows, timing and optional scores. */
export interface LearnOutcome {
  readonly stats: UpdateStats;
  /** Records the model has absorbed in total after this batch. */
  readonly recordsSeen: number;
  readonly rejected: readonly Rejection[];
  readonly scores?: RecordScores;
  /** Wall time of the update (and scoring) where it ran, in ms. */
  readonly durationMs: number;
}
