import type { GaussianExpectationLikelihood, MeanVarianceGradient } from './likelihood.js';
import { logitLabelSign } from './logit-label-sign.js';
import { viperBound, type ViperBoundGradient } from './softplus-gaussian-bound.js';

/**
 * Bernoulli-logit through the VI-PER bound (Komodromos et al. 2024, Theorem 2.1 and eq. 11):
 * E[log σ(s f)] = −E[softplus(−s f)] ≥ −η_l(−s·m, √v). Labels 0/1 or ±1.
 *
 * - `expectedLogProb`: a **lower bound**, −η_l(−s m, τ) with τ = √v; dm = s·∂η/∂ϑ,
 *   dv = −(∂η/∂τ)/(2τ). Needs v > 0 for the gradient (at v = 0, m = 0 the v-derivative is −∞).
 * - `logMarginal`: a **lower bound** by Jensen, log E[σ(s f)] ≥ E[log σ(s f)] ≥ −η_l: the same value
 *   and gradient as `expectedLogProb` (the bound says nothing sharper about log E σ).
 */
export class BernoulliLogitViper implements GaussianExpectationLikelihood {
  readonly name = 'bernoulli-logit-viper';
  private readonly partials: ViperBoundGradient = { dTheta: 0, dTau: 0 };

  /** @param l the series length parameter (2l − 1 terms); the paper's default is 12. */
  constructor(readonly l = 12) {
    if (!Number.isInteger(l) || l < 1) throw new RangeError(`BernoulliLogitViper: l must be a positive integer, got ${l}`);
  }

  expectedLogProb(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    const s = logitLabelSign(y);
    const tau = Math.sqrt(v);
    const eta = viperBound(-s * m, tau, this.l, this.partials);
    if (gradient !== undefined) {
      gradient.dm = s * this.partials.dTheta;
      gradient.dv = -(tau > 0 ? this.partials.dTau / tau : m === 0 ? Infinity : this.limitSlope(-s * m)) / 2;
    }
    return -eta;
  }

  logMarginal(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    return this.expectedLogProb(y, m, v, gradient);
  }

  /** lim_{τ→0} (∂η/∂τ)/τ = Σ_k (−1)^{k−1} k e^{−k|ϑ|} for ϑ ≠ 0 (the φ(ϑ/τ)/τ term vanishes). */
  private limitSlope(theta: number): number {
    let sum = 0;
    for (let k = 2 * this.l - 1; k >= 1; k--) sum += ((k & 1) === 1 ? k : -k) * Math.exp(-k * Math.abs(theta));
    return sum;
  }
}
