import type { OnlineModel } from '../src/core/online-model.js';
import type { SnapshotCandidate } from './snapshot-candidate.js';

/** The posterior a scoring service answers with: the restored model, its version, when it was made and where it came from. */
export interface ServedPosterior extends Omit<SnapshotCandidate, 'snapshot'> {
  readonly model: OnlineModel;
}
