import { describe, expect, it } from 'vitest';
import { createModel } from '../../src/registry.js';
import { Rng } from '../../src/rng/rng.js';

/**
 * Test-then-train squared error of records 11–50 of a seeded linear stream at p = 25 (w ~ N(0, I),
 * x ~ N(0, I), noise N(0, 1)), one record per update, mean over seeds 1–8.
 */
function earlyStreamError(options?: object): number {
  const d = 25;
  let total = 0;
  for (let seed = 1; seed <= 8; seed++) {
    const rng = Rng.fromSeed(seed);
    const w = Array.from({ length: d }, () => rng.normal());
    const model = createModel('vb-linear', d, options);
    const x = new Float64Array(d);
    let squared = 0;
    for (let r = 1; r <= 50; r++) {
      let score = 0;
      for (let j = 0; j < d; j++) {
        x[j] = rng.normal();
        score += w[j] * x[j];
      }
      const y = score + rng.normal();
      const prediction = model.predict(x).mean;
      if (r > 10) squared += (prediction - y) ** 2;
      model.update({ x, y: Float64Array.of(y), n: 1, d });
    }
    total += squared / 40;
  }
  return total / 8;
}

describe('vb-linear early in a stream (issue 28, item 3)', () => {
  // The Bayes predictor of this stream is the model with the true hyperparameters held (α = τ = 1,
  // what River's BayesianLinearRegression does by default): 6.47. Measured with the defaults: 10.57
  // (1.63×) while E[α] was held from the one-record fit for the first d records; refitting on every
  // update while N < 2d: 7.28 (1.13×). 1.25× leaves room.
  it('records 11–50 at p = 25, defaults, one record per update: squared error within 1.25× of the Bayes predictor with the true hyperparameters', () => {
    const bayes = earlyStreamError({ prior: { a0: 1e6, b0: 1e6, c0: 1e6, d0: 1e6 } });
    expect(bayes).toBeGreaterThan(6);
    expect(earlyStreamError()).toBeLessThan(1.25 * bayes);
  });
});
