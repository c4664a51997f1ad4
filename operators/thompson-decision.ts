/** A Thompson-sampling choice: the arm whose posterior draw scored the context highest. */
export interface ThompsonDecision<T> {
  readonly context: T;
  /** Chosen arm's id and its index in the arm list. */
  readonly arm: string;
  readonly index: number;
  /** Each arm's sampled score θ·x, in arm order. */
  readonly draws: Float64Array;
  /** The policy's decision id (`t<seed>-<n>`, n counting from 1 in each subscription). */
  readonly decisionId: string;
  /** Monte Carlo estimate of P(this arm | x) (see `ThompsonPolicy`). */
  readonly propensity: number;
}
