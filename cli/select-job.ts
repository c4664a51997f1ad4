import type { CandidateBound } from '../src/selection/candidate-bound.js';
import type { CheckedCandidate } from '../src/selection/checked-candidate.js';
import type { FitData } from './fit-adapter.js';
import type { WorkerFailure } from './worker-failure.js';

/** What `vbstream select` hands one worker: its share of the checked candidates and the training set. */
export interface SelectJob {
  readonly candidates: readonly CheckedCandidate[];
  readonly train: FitData;
}

/** What the worker answers: each candidate's bound, in order, or which candidate failed and why. */
export type SelectJobResult = { readonly ok: true; readonly bounds: CandidateBound[] } | ({ readonly ok: false; readonly candidate: string } & WorkerFailure);
