import type { MeanVarianceGradient } from '../../likelihoods/likelihood.js';
import type { PointwiseLikelihood } from '../../likelihoods/pointwise-likelihood.js';
import type { Rng } from '../../rng/rng.js';
import type { PointLossGradient, SparseGpObjective } from './point-loss.js';
import { UpsSampler } from './ups-sampler.js';

/**
 * Log-loss DLM with the unbiased product-sampling (uPS) gradient (Wei, Sheth & Khardon 2021,
 * Lemma 1): the value is the likelihood's −log E_q[p(y | f)] (closed form or Gauss–Hermite), the
 * gradient the negated mean over S draws f ~ q̃ ∝ q·p of ∇ log q(f): ∂/∂μ = (f − μ)/v,
 * ∂/∂v = ½((f − μ)²/v² − 1/v). If a point's sampler exhausts its proposals, that point falls back
 * to the quadrature gradient (counted in `fallbacks`).
 */
export class UpsDlmObjective implements SparseGpObjective {
  readonly id = 'ups-dlm';
  readonly regulariser = 'kl';
  readonly sampler: UpsSampler;
  fallbacks = 0;
  private rng: Rng | undefined;
  private readonly partial: MeanVarianceGradient = { dm: 0, dv: 0 };

  constructor(readonly likelihood: PointwiseLikelihood, readonly samples = 10) {
    this.sampler = new UpsSampler(likelihood, 10, 10000);
  }

  prepare(_n: number, rng: Rng): void {
    this.rng = rng;
  }

  pointLoss(y: number, mu: number, v: number, _index: number, gradient: PointLossGradient): number {
    const value = this.likelihood.logMarginal(y, mu, v, this.partial);
    gradient.dLogNoise = 0;
    const rng = this.rng;
    if (rng === undefined || !(v > 0)) {
      gradient.dm = -this.partial.dm;
      gradient.dv = -this.partial.dv;
      return -value;
    }
    const { n } = this.sampler.width(y, mu, v);
    let dm = 0;
    let dv = 0;
    for (let s = 0; s < this.samples; s++) {
      const f = this.sampler.draw(y, mu, v, n, rng);
      if (Number.isNaN(f)) {
        this.fallbacks += 1;
        gradient.dm = -this.partial.dm;
        gradient.dv = -this.partial.dv;
        return -value;
      }
      const r = f - mu;
      dm += r / v;
      dv += 0.5 * ((r * r) / (v * v) - 1 / v);
    }
    gradient.dm = -dm / this.samples;
    gradient.dv = -dv / this.samples;
    return -value;
  }
}
