import type { ModelSnapshot } from '../core/model-snapshot.js';
import type { BanditDecision } from './bandit-decision.js';

/** What a policy learns from: a decision it made, or any (context, arm) pair (logged by another policy). */
export interface PlayedArm {
  readonly context: Float64Array;
  readonly arm: number;
}

/** A policy's distribution over arms for a context (what off-policy evaluation needs of a candidate). */
export interface ActionDistribution {
  readonly arms: number;
  /** P(arm a | context) for every arm, summing to 1. */
  actionProbabilities(context: Float64Array): Float64Array;
}

/**
 * A contextual-bandit policy over `arms` arms and `dim` context features, in the shape of River's
 * `Policy.pull / update`: `decide` picks an arm (with its propensity), `learn` absorbs the reward
 * observed after playing an arm. Deterministic given its seed; `snapshot` captures every posterior,
 * the counters and the generator, so `restorePolicy(snapshot)` continues bit for bit.
 */
export interface BanditPolicy extends ActionDistribution {
  readonly name: string;
  readonly dim: number;
  /** Decisions made so far. */
  readonly decisions: number;
  decide(context: Float64Array): BanditDecision;
  /** E[r | x, a] of every arm under the current posterior (its mean; no draw): what the estimated regret of a decision is measured against. */
  expectedRewards(context: Float64Array): Float64Array;
  learn(played: PlayedArm, reward: number): void;
  snapshot(): ModelSnapshot;
}
