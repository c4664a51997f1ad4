import type { UpdateStats } from '../src/core/online-model.js';
import type { LabelledRecord } from './labelled-record.js';
import type { RecordScores } from './learn-outcome.js';
import type { Learner } from './learner.js';

/**
 * What `learn` emits per record or minibatch: the family's stats and the counts, durations and
 * queue depth a metrics layer exports, the source positions the model now covers, and (with
 * `evaluate`) the test-then-train scores of the records in `records`.
 */
export interface UpdateEvent {
  readonly family: string;
  /** The model, for `snapshots()` to ask for its state in order. */
  readonly learner: Learner;
  /** The records learned (refused ones excluded), in order; `scores` index into this. */
  readonly records: readonly LabelledRecord[];
  /** Records offered in this batch, refused included. */
  readonly offered: number;
  /** Records refused (sent to the bad-record side-channel). */
  readonly rejected: number;
  /** Records the model has absorbed in total. */
  readonly recordsSeen: number;
  readonly stats: UpdateStats;
  /** Time the model spent on the batch where it ran, ms. */
  readonly durationMs: number;
  /** Time from the batch reaching `learn` to its outcome (queueing and thread hops included), ms. */
  readonly latencyMs: number;
  /** Per source, the offset to resume from: every record before it has been applied or refused. */
  readonly positions: { readonly [source: string]: number };
  /** Records queued in the backpressure valve after this batch (0 without one). */
  readonly queueDepth: number;
  readonly scores?: RecordScores;
}
