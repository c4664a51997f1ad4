import type { Predictive } from '../src/core/predictive.js';
import type { LabelledRecord } from './labelled-record.js';

/** A record scored against a posterior: the predictive mean, variance and a central credible interval. */
export interface Prediction {
  readonly record: LabelledRecord;
  readonly family: string;
  /** Records the posterior had absorbed when it scored this record. */
  readonly recordsSeen: number;
  readonly kind: Predictive['kind'];
  readonly mean: number;
  readonly variance: number;
  /** Central credible interval at the operator's level. */
  readonly interval: readonly [number, number];
  /** −log p(y | x) when the record has a label, else NaN. */
  readonly logLoss: number;
}
