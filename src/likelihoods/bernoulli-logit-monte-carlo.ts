import type { Rng } from '../rng/rng.js';
import { log1pexp } from '../special/log1pexp.js';
import { sigmoid } from '../special/sigmoid.js';
import type { GaussianExpectationLikelihood, MeanVarianceGradient } from './likelihood.js';
import { logitLabelSign } from './logit-label-sign.js';

/**
 * Bernoulli-logit by reparameterised Monte Carlo (VI-MC of Komodromos et al.): f_j = m + √v·z_j with
 * S standard normal draws z_j held fixed until {@link BernoulliLogitMonteCarlo.resample}, so the
 * objective is a deterministic sample-average approximation that L-BFGS can line-search. Values are
 * **estimates** (unbiased for `expectedLogProb`; `logMarginal` = log of an unbiased estimate of E σ,
 * biased low by Jensen); gradients are the exact gradients of the estimates (reparameterisation,
 * ∂f_j/∂v = z_j/(2√v), so v > 0 is needed). Labels 0/1 or ±1.
 */
export class BernoulliLogitMonteCarlo implements GaussianExpectationLikelihood {
  readonly name = 'bernoulli-logit-monte-carlo';
  /** The current standard normal draws (length `samples`). */
  readonly draws: Float64Array;

  constructor(readonly samples: number, rng: Rng) {
    if (!Number.isInteger(samples) || samples < 1) throw new RangeError(`BernoulliLogitMonteCarlo: samples must be a positive integer, got ${samples}`);
    this.draws = new Float64Array(samples);
    this.resample(rng);
  }

  /** Draws fresh z_j (stochastic optimisation); deterministic given the generator's state. */
  resample(rng: Rng): void {
    for (let j = 0; j < this.samples; j++) this.draws[j] = rng.normal();
  }

  expectedLogProb(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    const s = logitLabelSign(y);
    const sd = Math.sqrt(v);
    let value = 0;
    let dm = 0;
    let dz = 0;
    for (let j = 0; j < this.samples; j++) {
      const u = s * (m + sd * this.draws[j]);
      value -= log1pexp(-u);
      const p = sigmoid(-u);
      dm += p;
      dz += p * this.draws[j];
    }
    if (gradient !== undefined) {
      gradient.dm = (s * dm) / this.samples;
      gradient.dv = (s * dz) / (2 * sd * this.samples);
    }
    return value / this.samples;
  }

  logMarginal(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    const s = logitLabelSign(y);
    const sd = Math.sqrt(v);
    let top = -Infinity;
    for (let j = 0; j < this.samples; j++) top = Math.max(top, -log1pexp(-s * (m + sd * this.draws[j])));
    let total = 0;
    let dm = 0;
    let dz = 0;
    for (let j = 0; j < this.samples; j++) {
      const u = s * (m + sd * this.draws[j]);
      const omega = Math.exp(-log1pexp(-u) - top);
      const q = sigmoid(-u);
      total += omega;
      dm += omega * q;
      dz += omega * q * this.draws[j];
    }
    if (gradient !== undefined) {
      gradient.dm = (s * dm) / total;
      gradient.dv = (s * dz) / (2 * sd * total);
    }
    return top + Math.log(total / this.samples);
  }
}
