/**
 * One row's answer of a scoring service: the predictive mean (p(y = 1) for a binary label) and
 * variance of y, a central interval of mass `level` (for a binary label, of p under the posterior
 * of its latent score), the version of the posterior that answered and the id the prediction was
 * logged under. A value the predictive does not have finite (a Student-t's variance at ≤ 2 degrees
 * of freedom, a count interval's open end) is `null` in JSON.
 */
export interface Prediction {
  readonly mean: number;
  readonly variance: number;
  readonly interval: readonly [number, number];
  readonly level: number;
  readonly version: string;
  readonly predictionId: string;
}
