import type { LoggedPrediction } from './logged-prediction.js';

/** Where a scoring service logs its predictions (and writes the outcomes its clients report): a `KafkaPredictionLog`, or a stand-in in tests. */
export interface PredictionLog {
  /** Resolves once the predictions are durable; rejects (an `io` `VbstreamError`, retriable when a retry can help) when they could not be written. */
  log(predictions: readonly LoggedPrediction[]): Promise<void>;
  /** Writes an outcome keyed by its prediction id and resolves once it is durable; absent when the log takes no outcomes. */
  outcome?(predictionId: string, y: number): Promise<void>;
  /** What keeps the log from being written (brokers that refuse or do not answer), or undefined while it is. */
  readonly brokerProblem: string | undefined;
  /** Writes what is queued and disconnects. */
  stop(): Promise<void>;
}
