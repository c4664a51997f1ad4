import type { ModelSnapshot } from '../src/core/model-snapshot.js';

/** A posterior snapshot a {@link PosteriorSource} found, decoded but not restored yet: what it offers a `PosteriorSink`. */
export interface SnapshotCandidate {
  readonly snapshot: ModelSnapshot;
  /**
   * Identifies the posterior; every answer it gives carries it: `file:<n>` for the n-th snapshot of a
   * directory, `<p>:<nextOffset>` for one partition's model on a snapshot topic, the published
   * `version` (`p:offset,…`) for a merged global posterior.
   */
  readonly version: string;
  /** When the snapshot was made, ms since the epoch (its envelope's `createdAt`, or the time of its record on the topic). */
  readonly createdAt: number;
  /** Where it was read: a file path, `topic/partition@offset`. */
  readonly origin: string;
}
