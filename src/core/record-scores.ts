import type { Predictive } from './predictive.js';

/** Predictions made for each record of a batch *before* the batch was learned (test-then-train). */
export interface RecordScores {
  readonly kind: Predictive['kind'];
  /** Predictive mean (p(y = 1) for a binary label), per batch row; NaN for rejected rows. */
  readonly mean: Float64Array;
  readonly variance: Float64Array;
  /** −log p(y | x, data before the batch), per batch row; NaN for rejected rows. */
  readonly logLoss: Float64Array;
}
