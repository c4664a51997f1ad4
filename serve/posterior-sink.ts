import type { SnapshotCandidate } from './snapshot-candidate.js';

/** What a `PosteriorSource` hands its snapshots to (a `HotSwappedPosterior`). */
export interface PosteriorSink {
  /** Restores `candidate` and serves it when it fits; false when it is refused (reported once, the served posterior stays). */
  offer(candidate: SnapshotCandidate): boolean;
  /** A snapshot found at `origin` that could not be read or decoded: reported once, the served posterior stays. */
  refuse(origin: string, error: unknown): void;
}
