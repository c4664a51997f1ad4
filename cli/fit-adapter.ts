import type { Predictive } from '../src/core/predictive.js';
import type { Task } from '../src/core/task.js';
import type { JsonValue } from '../src/core/model-snapshot.js';

/** A training set as the CLI hands it to an adapter. */
export interface FitData {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly n: number;
  readonly d: number;
}

/** The posterior.json contract of `vbstream fit`. */
export interface PosteriorJson {
  readonly family: string;
  readonly version: number;
  readonly dim: number;
  readonly mean: number[];
  readonly cov: number[][];
  readonly extras: { [key: string]: JsonValue };
}

/** What an adapter's fit returns: the posterior document, a predictor for test rows and the fitted model's predictive distribution of a row (its credible intervals). */
export interface FitOutcome {
  readonly posterior: PosteriorJson;
  predict(x: Float64Array, n: number): { [key: string]: JsonValue };
  predictive?(x: Float64Array, offset: number): Predictive;
}

/**
 * Connects one `vbstream fit --model <id>` to a model family: which options it accepts (anything
 * else is refused) and how a whole training set becomes a posterior and predictions.
 */
export interface FitAdapter {
  readonly id: string;
  readonly task: Task;
  readonly optionKeys: readonly string[];
  fit(data: FitData, options: { readonly [key: string]: unknown }): FitOutcome;
}
