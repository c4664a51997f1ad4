/** A policy's choice for one context. */
export interface BanditChoice {
  /** Index of the chosen arm. */
  readonly arm: number;
  /** Each arm's score for this context (sampled θ·x for Thompson, the estimate or upper bound otherwise). */
  readonly scores: Float64Array;
  /** Probability that the policy picks this arm for this context (exact, or a Monte Carlo estimate). */
  readonly propensity: number;
}

/** A contextual-bandit policy over K arms and d context features: choose, then learn from the reward. */
export interface BanditPolicy {
  readonly name: string;
  readonly arms: number;
  readonly dim: number;
  choose(x: Float64Array): BanditChoice;
  /** Learns the reward (0 or 1) observed after playing `arm` in context `x`. */
  learn(x: Float64Array, arm: number, reward: number): void;
}
