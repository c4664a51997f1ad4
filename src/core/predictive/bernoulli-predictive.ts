import type { Rng } from '../../rng/rng.js';
import { normalQuantile } from '../../special/normal-quantile.js';
import { normalCdf } from '../../special/normal-cdf.js';
import { sigmoid } from '../../special/sigmoid.js';
import type { Predictive } from '../predictive.js';

/**
 * Predictive distribution of a binary label: p(y = 1 | x, data) = `prob`. When the latent score
 * (the logit, or for `link` 'probit' the probit score) has a Gaussian posterior N(logitMean,
 * logitVariance), `interval(level)` is the central credible interval of the success probability
 * σ(score) (or Φ(score)); otherwise it is [prob, prob].
 */
export class BernoulliPredictive implements Predictive {
  readonly kind = 'bernoulli' as const;

  constructor(readonly prob: number, readonly logitMean = Number.NaN, readonly logitVariance = Number.NaN, readonly link: 'logit' | 'probit' = 'logit') {}

  get mean(): number {
    return this.prob;
  }

  get variance(): number {
    return BernoulliPredictive.varianceOf(this.prob);
  }

  logProb(y: number): number {
    return BernoulliPredictive.logProbOf(this.prob, y);
  }

  /** The variance of a binary label of success probability `prob`. */
  static varianceOf(prob: number): number {
    return prob * (1 - prob);
  }

  /** log p(y) of a binary label (0/1 or −1/1) of success probability `prob`; −∞ for any other y. */
  static logProbOf(prob: number, y: number): number {
    if (y === 1) return Math.log(prob);
    if (y === 0 || y === -1) return Math.log1p(-prob);
    return -Infinity;
  }

  sample(rng: Rng): number {
    return rng.nextDouble() < this.prob ? 1 : 0;
  }

  interval(level: number): [number, number] {
    if (!(level > 0 && level < 1)) throw new RangeError(`interval level must be in (0, 1), got ${level}`);
    if (!(this.logitVariance >= 0)) return [this.prob, this.prob];
    const half = normalQuantile(0.5 + level / 2) * Math.sqrt(this.logitVariance);
    const probability = this.link === 'probit' ? normalCdf : sigmoid;
    return [probability(this.logitMean - half), probability(this.logitMean + half)];
  }
}
