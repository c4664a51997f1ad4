import type { UpdateStats } from '../src/core/online-model.js';
import type { RecordScores } from '../src/core/record-scores.js';
import type { VbstreamError } from '../src/core/vbstream-error.js';

export type { RecordScores } from '../src/core/record-scores.js';

/** A batch row the model refused (bad input, or an update it could not take finitely); the model is untouched by it. */
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
