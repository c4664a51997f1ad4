import type { PropensityMethod } from '../../src/bandit/bandit-decision.js';

/**
 * A decision as a decider logs it to the decisions topic (the JSON value of the record, keyed by
 * `decisionId`): what the learner needs to learn from its reward, and what off-policy evaluation
 * needs (context, arm, propensity).
 */
export interface LoggedDecision {
  /** `${instance}-${n}`: unique across decider instances (each start draws a new instance id). */
  readonly decisionId: string;
  readonly arm: number;
  readonly propensity: number;
  readonly propensityMethod: PropensityMethod;
  readonly scores: readonly number[];
  readonly context: readonly number[];
  /** When the decider decided, ms since the epoch: the reward window runs from here. */
  readonly decidedAt: number;
  /** The decider instance that decided. */
  readonly instance: string;
  /** Rewards behind the policy that decided (the learner's count when it published it). */
  readonly policyRewards: number;
}
