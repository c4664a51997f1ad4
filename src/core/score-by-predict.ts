import type { OnlineModel } from './online-model.js';
import type { Predictive } from './predictive.js';

/**
 * Scores the `n` records of `x` (labels `y`) a `predict` each: record i's predictive mean, variance
 * and −log p(y_i) into `mean[i]`, `variance[i]` and `logLoss[i]` (NaN for a record `predict`
 * refuses); returns the predictives' kind, undefined when none was scored.
 */
export function scoreByPredict(model: Pick<OnlineModel, 'predict' | 'dim'>, x: Float64Array, y: ArrayLike<number>, n: number, mean: Float64Array, variance: Float64Array, logLoss: Float64Array): Predictive['kind'] | undefined {
  const d = model.dim;
  let kind: Predictive['kind'] | undefined;
  for (let i = 0; i < n; i++) {
    let predictive: Predictive;
    try {
      predictive = model.predict(x, i * d);
    } catch {
      mean[i] = variance[i] = logLoss[i] = Number.NaN;
      continue;
    }
    kind = predictive.kind;
    mean[i] = predictive.mean;
    variance[i] = predictive.variance;
    logLoss[i] = -predictive.logProb(y[i]);
  }
  return kind;
}
