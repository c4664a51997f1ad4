/**
 * A prediction as a scoring service logs it to the predictions topic (JSON, keyed by
 * `predictionId`), before the answer is returned: the features as the model saw them (named
 * features mapped to positions), the posterior's version and the prediction.
 */
export interface LoggedPrediction {
  /** `${instance}-${n}`, n counting from 1 per instance. */
  readonly predictionId: string;
  readonly x: readonly number[];
  readonly version: string;
  readonly mean: number;
  readonly variance: number;
  readonly interval: readonly [number, number];
  readonly level: number;
  /** ms since the epoch. */
  readonly predictedAt: number;
  /** The service instance: 12 random hex digits new at every start, or the configured id. */
  readonly instance: string;
  readonly family: string;
  readonly dim: number;
}
