/** How a decision's propensity was obtained: in closed form, by numerical quadrature of a closed-form integral, or by seeded Monte Carlo draws. */
export type PropensityMethod = 'exact' | 'quadrature' | 'monte-carlo';

/**
 * A policy's decision for one context: what to log next to the context, and later to learn from.
 * `context` and `scores` are written by `JSON.stringify` as arrays of numbers (`JsonFloat64Array`),
 * so a decision logged as JSON reads back in `bandit:evaluate`.
 */
export interface BanditDecision {
  /** Deterministic id, `${idPrefix}-${n}` for the policy's n-th decision (n from 1). */
  readonly decisionId: string;
  /** The context the decision was made for (the policy keeps no reference to it). */
  readonly context: Float64Array;
  /** Index of the chosen arm. */
  readonly arm: number;
  /** P(the policy picks `arm` | context), as the policy stood at the decision. */
  readonly propensity: number;
  readonly propensityMethod: PropensityMethod;
  /** Each arm's score: the sampled θ·φ(x, a) (Thompson), the upper bound (LinUCB) or the predictive mean (ε-greedy). */
  readonly scores: Float64Array;
}
