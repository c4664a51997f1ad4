import type { Batch } from '../core/batch.js';
import { candidateBound } from './candidate-bound.js';
import { checkCandidates } from './check-candidates.js';
import type { ModelCandidate } from './model-candidate.js';
import { rankByBound, type RankedCandidate } from './rank-by-bound.js';

/**
 * Model selection by the variational bound (Drugowitsch §2.6.4 for linear, §3.6.3 for logistic
 * regression): fits every candidate (a family, its options, a feature transform) to all of `data` in
 * one batch and ranks them by their lower bound on the log evidence, best first, with Δ to the best
 * and approximate posterior model probabilities ∝ exp(bound). The candidates are checked before any
 * fit (`ConfigError`; a family whose objective is not a bound on the evidence is refused).
 */
export function selectByBound(candidates: readonly ModelCandidate[], data: Batch): RankedCandidate[] {
  return rankByBound(checkCandidates(candidates, data.d).map((candidate) => candidateBound(candidate, data)));
}
