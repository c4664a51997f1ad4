import { PoissonLogNormalPredictive } from '../src/core/predictive/poisson-log-normal-predictive.js';
import { Rng } from '../src/rng/rng.js';

/** Seeded Poisson regression data: an intercept and d − 1 standard normal features, weights of size 0.3/√d. */
export function syntheticPoisson(n: number, d: number, seed: number): { x: Float64Array; y: Float64Array } {
  const rng = Rng.fromSeed(seed);
  const w = Float64Array.from({ length: d }, (_, j) => (j === 0 ? 1 : (0.3 * rng.normal()) / Math.sqrt(d)));
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let f = 0;
    for (let j = 0; j < d; j++) {
      x[r * d + j] = j === 0 ? 1 : rng.normal();
      f += w[j] * x[r * d + j];
    }
    y[r] = new PoissonLogNormalPredictive(f, 0).sample(rng);
  }
  return { x, y };
}
