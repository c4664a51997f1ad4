import { describe, expect, it } from 'vitest';
import { BernoulliPredictive } from '../../src/core/predictive/bernoulli-predictive.js';
import { createModel } from '../../src/registry.js';
import { normalCdf } from '../../src/special/normal-cdf.js';
import { normalQuantile } from '../../src/special/normal-quantile.js';
import { sigmoid } from '../../src/special/sigmoid.js';

describe('BernoulliPredictive.interval', () => {
  it('maps the latent interval through the link: σ for a logit score, Φ for a probit score', () => {
    const z = normalQuantile(0.95);
    const logit = new BernoulliPredictive(0.6, 0.4, 0.25).interval(0.9);
    expect(logit[0]).toBeCloseTo(sigmoid(0.4 - z * 0.5), 14);
    expect(logit[1]).toBeCloseTo(sigmoid(0.4 + z * 0.5), 14);
    const probit = new BernoulliPredictive(0.6, 0.4, 0.25, 'probit').interval(0.9);
    expect(probit[0]).toBeCloseTo(normalCdf(0.4 - z * 0.5), 14);
    expect(probit[1]).toBeCloseTo(normalCdf(0.4 + z * 0.5), 14);
    expect(new BernoulliPredictive(0.3).interval(0.9)).toEqual([0.3, 0.3]);
  });

  it('probit families give intervals of Φ(score) that contain their predictive probability', () => {
    const model = createModel('adf-probit', 2);
    model.update({ x: Float64Array.of(1, 0.5, 1, -0.3, 1, 1.2), y: Float64Array.of(1, 0, 1), n: 3, d: 2 });
    const p = model.predict(Float64Array.of(1, 0.2));
    const [low, high] = p.interval(0.95);
    const half = normalQuantile(0.975) * Math.sqrt(p.logitVariance);
    expect(low).toBeCloseTo(normalCdf(p.logitMean - half), 14);
    expect(high).toBeCloseTo(normalCdf(p.logitMean + half), 14);
    expect(low).toBeLessThan(p.mean);
    expect(high).toBeGreaterThan(p.mean);
  });
});
