/** A Thompson-sampling choice: the arm whose posterior draw scored the context highest. */
export interface ThompsonDecision<T> {
  readonly context: T;
  /** Chosen arm's id and its index in the arm list. */
  readonly arm: string;
  readonly index: number;
  /** Each arm's sampled score θ·x, in arm order. */
  readonly draws: Float64Array;
}
