import type { SnapshotEvent } from '../src/core/snapshot-event.js';

/** A snapshot made durable, where, and how large. */
export interface Checkpoint {
  readonly event: SnapshotEvent;
  /** Where it was stored: a file path, a topic key. */
  readonly location: string;
  readonly bytes: number;
}

/**
 * The last step of a record's way through the runtime: makes a snapshot durable and then tells
 * its source the positions it covers may be released (a Kafka consumer group commits its offsets;
 * a file keeps its position inside the snapshot and has nothing to release). A crash at any point
 * then resumes from the newest durable snapshot, its state and positions taken together.
 */
export interface Checkpointer {
  checkpoint(event: SnapshotEvent): Promise<Checkpoint>;
}
