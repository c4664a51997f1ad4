import type { UpdateStats } from '../src/core/online-model.js';
import type { RecordScores } from './learn-outcome.js';
import type { SnapshotCapture } from './snapshot-capture.js';

/**
 * What `learn` emits per record, minibatch or chunk: the family's stats and the counts, durations
 * and queue depth a metrics layer exports, the source positions the model now covers, and (with
 * `evaluate`) the test-then-train scores of the records learned.
 */
export interface UpdateEvent {
  readonly family: string;
  /**
   * The model's state with the positions and record count it covers, taken at one point of the
   * learner's queue: whenever it is called (at this event, or later on a timer while more batches
   * are queued in a worker), state and positions agree. It covers the batches handed to the
   * learner when it is called; with `all`, also those `learn` holds back behind its window
   * (it is then taken once they are handed on).
   */
  readonly capture: (all?: boolean) => SnapshotCapture | Promise<SnapshotCapture>;
  /** Labels of the records learned (refused ones excluded), in order; `scores` index into them. */
  readonly labels: Float64Array;
  /** Stream rows (file rows, Kafka offsets) of the records learned, in the same order. */
  readonly rows: Float64Array;
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
  /** Whether a capture taken after this batch was handed to the learner (while it was queued) already holds it: snapshot triggers do not count it again. */
  readonly snapshotted?: boolean;
  readonly scores?: RecordScores;
}
