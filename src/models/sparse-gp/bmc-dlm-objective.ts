import type { PointwiseLikelihood } from '../../likelihoods/pointwise-likelihood.js';
import type { Rng } from '../../rng/rng.js';
import type { PointLossGradient, SparseGpObjective } from './point-loss.js';

/**
 * Log-loss DLM with the biased Monte Carlo (bMC) data term (Wei, Sheth & Khardon 2021, §3.2):
 * ℓ_i = −[logsumexp_s log p(y_i | f_si) − log S], f_si = μ_i + √v_i·ε_si, reparameterised so that
 * g_μ = −Σ_s ω_s ∂_f log p(y|f_s), g_v = −Σ_s ω_s ∂_f log p(y|f_s)·ε_s/(2√v), ω = softmax_s log p.
 * `prepare` draws fresh ε (S×n) per minibatch; `useDraws` fixes them (tests, replay).
 */
export class BmcDlmObjective implements SparseGpObjective {
  readonly id = 'bmc-dlm';
  readonly regulariser = 'kl';
  private draws: Float64Array = new Float64Array(0);
  private n = 0;
  private readonly logP: Float64Array;

  constructor(readonly likelihood: PointwiseLikelihood, readonly samples = 10) {
    this.logP = new Float64Array(samples);
  }

  prepare(n: number, rng: Rng): void {
    if (this.draws.length < this.samples * n) this.draws = new Float64Array(this.samples * n);
    this.n = n;
    for (let k = 0; k < this.samples * n; k++) this.draws[k] = rng.normal();
  }

  /** Uses the given standard normals, S×n row-major (draw s of point i at s·n + i). */
  useDraws(eps: Float64Array, n: number): void {
    this.draws = eps;
    this.n = n;
  }

  pointLoss(y: number, mu: number, v: number, index: number, gradient: PointLossGradient): number {
    const S = this.samples;
    const sd = Math.sqrt(v);
    let max = -Infinity;
    for (let s = 0; s < S; s++) {
      const lp = this.likelihood.logDensity(y, mu + sd * this.draws[s * this.n + index]);
      this.logP[s] = lp;
      if (lp > max) max = lp;
    }
    let sum = 0;
    let dm = 0;
    let dv = 0;
    for (let s = 0; s < S; s++) {
      const eps = this.draws[s * this.n + index];
      const weight = Math.exp(this.logP[s] - max);
      const score = this.likelihood.logDensityDerivative(y, mu + sd * eps);
      sum += weight;
      dm += weight * score;
      dv += weight * score * eps;
    }
    gradient.dm = -dm / sum;
    gradient.dv = sd > 0 ? -dv / sum / (2 * sd) : 0;
    gradient.dLogNoise = 0;
    return -(max + Math.log(sum) - Math.log(S));
  }
}
