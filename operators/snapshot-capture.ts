import type { ModelSnapshot } from '../src/core/model-snapshot.js';

/** A model's state with the source positions and record count it covers, taken at one point of the learner's queue. */
export interface SnapshotCapture {
  readonly snapshot: ModelSnapshot;
  readonly recordsSeen: number;
  readonly positions: { readonly [source: string]: number };
}
