import type { Predictive } from '../predictive.js';
import { PoissonLikelihood } from '../../likelihoods/poisson-likelihood.js';
import type { Rng } from '../../rng/rng.js';

const likelihood = new PoissonLikelihood();

/**
 * Predictive distribution of a count under a log-link Poisson with latent f ~ N(μ, v): mean
 * e^{μ+v/2}, variance mean + (e^v − 1)·mean², p(y) = E[Poisson(y; eᶠ)] by Gauss–Hermite(100).
 */
export class PoissonLogNormalPredictive implements Predictive {
  readonly kind = 'poisson' as const;

  constructor(readonly latentMean: number, readonly latentVariance: number) {}

  get mean(): number {
    return Math.exp(this.latentMean + 0.5 * this.latentVariance);
  }

  get variance(): number {
    const mean = this.mean;
    return mean + Math.expm1(this.latentVariance) * mean * mean;
  }

  logProb(y: number): number {
    if (!(Number.isInteger(y) && y >= 0)) return -Infinity;
    return likelihood.logMarginal(y, this.latentMean, this.latentVariance);
  }

  /** f ~ N(μ, v), then y ~ Poisson(eᶠ) by inversion (normal approximation above rate 1e4). */
  sample(rng: Rng): number {
    const rate = Math.exp(this.latentMean + Math.sqrt(this.latentVariance) * rng.normal());
    if (rate > 1e4) return Math.max(0, Math.round(rate + Math.sqrt(rate) * rng.normal()));
    let u = rng.nextDouble();
    let k = 0;
    let p = Math.exp(-rate);
    while (u > p && k < 1e6) {
      u -= p;
      k += 1;
      p *= rate / k;
    }
    return k;
  }

  /** Central interval of the count: the smallest k with CDF ≥ (1 − level)/2 and with CDF ≥ (1 + level)/2. */
  interval(level: number): [number, number] {
    if (!(level > 0 && level < 1)) throw new RangeError(`interval level must be in (0, 1), got ${level}`);
    const low = (1 - level) / 2;
    const high = (1 + level) / 2;
    let cdf = 0;
    let lower = -1;
    for (let k = 0; k < 1e6; k++) {
      cdf += Math.exp(this.logProb(k));
      if (lower < 0 && cdf >= low) lower = k;
      if (cdf >= high) return [lower, k];
    }
    return [Math.max(lower, 0), Infinity];
  }
}
