import type { CandidateBound } from './candidate-bound.js';

/** A candidate's place in a ranking by the bound. */
export interface RankedCandidate extends CandidateBound {
  /** bound − the best bound (0 for the best, negative for the others). */
  readonly delta: number;
  /**
   * Approximate posterior probability of the model under a uniform prior over the candidates,
   * exp(bound) / Σ exp(bound): the bound standing in for ln p(y | X) (Drugowitsch §2.6.4).
   */
  readonly probability: number;
}

/** The candidates sorted by their bound, best first (ties keep their order), with Δ to the best and the approximate model probabilities (log-sum-exp, so no overflow). */
export function rankByBound(bounds: readonly CandidateBound[]): RankedCandidate[] {
  const sorted = [...bounds].sort((a, b) => b.bound - a.bound);
  const best = sorted.length === 0 ? 0 : sorted[0].bound;
  let total = 0;
  for (const c of sorted) total += Math.exp(c.bound - best);
  return sorted.map((c) => ({ ...c, delta: c.bound - best, probability: Math.exp(c.bound - best) / total }));
}
