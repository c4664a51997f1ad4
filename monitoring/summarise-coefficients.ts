import type { OnlineModel } from '../src/core/online-model.js';
import { Rng } from '../src/rng/rng.js';
import type { CoefficientSummary } from './coefficient-summary.js';

/**
 * The `topK` coefficients of `model` with the largest |posterior mean|, with standard deviations
 * from `draws` posterior samples (a fixed seed, so two calls on the same posterior agree). Runs at
 * the posterior-summary cadence of the monitor (about once a second), never per record: the draws
 * cost `draws` calls of `sample`. A family that cannot sample gets means only.
 */
export function summariseCoefficients(model: OnlineModel, topK = 10, draws = 32): CoefficientSummary {
  const mean = model.posteriorMean();
  const order = Array.from(mean.keys()).sort((a, b) => Math.abs(mean[b]) - Math.abs(mean[a]) || a - b).slice(0, topK);
  const means = order.map((j) => mean[j]);
  let sd: number[] | undefined;
  try {
    const rng = Rng.fromSeed(0x5eed);
    const sum = new Float64Array(order.length);
    const squares = new Float64Array(order.length);
    const draw = new Float64Array(mean.length);
    for (let s = 0; s < draws; s++) {
      model.sample(rng, draw);
      order.forEach((j, i) => {
        sum[i] += draw[j];
        squares[i] += draw[j] * draw[j];
      });
    }
    sd = order.map((_, i) => Math.sqrt(Math.max(0, (squares[i] - (sum[i] * sum[i]) / draws) / (draws - 1))));
  } catch {
    // No posterior to sample (e.g. a point-estimate family): the view shows the means without bands.
  }
  return sd === undefined ? { index: order, mean: means } : { index: order, mean: means, sd };
}
