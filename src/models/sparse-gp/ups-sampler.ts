import type { PointwiseLikelihood } from '../../likelihoods/pointwise-likelihood.js';
import type { Rng } from '../../rng/rng.js';
import { normalLogPdf } from '../../special/normal-log-pdf.js';

const LOG_HALF = Math.log(0.5);

/**
 * The uPS rejection sampler for q̃(f) ∝ N(f; μ, v)·p(y | f) (Wei, Sheth & Khardon 2021, Lemma 1 and
 * App. A): proposal N(μ, n·v) with envelope constant ℓ_max = max_f p(y | f); n = 1 when p is large
 * on [μ − σ, μ + σ] ("aligned"), otherwise the largest n ∈ {maxn, …, 2} with
 * max_{[μ−r, μ+r]} p ≤ ℓ_max/√n, r = σ√(log n/(1 − 1/n)). The acceptance probability is
 * E_q[p]/ℓ_max whatever n is; n only shapes the proposal. Assumes p(y | ·) unimodal or monotone.
 */
export class UpsSampler {
  /** Proposals made by {@link draw} since construction (for acceptance statistics). */
  proposals = 0;

  constructor(readonly likelihood: PointwiseLikelihood, readonly maxn = 10, readonly maxProposals = 100000) {}

  private logMaxOn(y: number, low: number, high: number): number {
    const mode = this.likelihood.mode(y);
    if (mode >= low && mode <= high) return this.likelihood.logMaxDensity(y);
    return Math.max(this.likelihood.logDensity(y, low), this.likelihood.logDensity(y, high));
  }

  /** Whether (y, μ, v) is aligned, and the width multiplier n of the proposal. */
  width(y: number, mu: number, v: number): { aligned: boolean; n: number } {
    const sd = Math.sqrt(v);
    const logMax = this.likelihood.logMaxDensity(y);
    if (this.logMaxOn(y, mu - sd, mu + sd) > LOG_HALF + logMax) return { aligned: true, n: 1 };
    for (let n = this.maxn; n >= 2; n--) {
      const r = sd * Math.sqrt(Math.log(n) / (1 - 1 / n));
      if (this.logMaxOn(y, mu - r, mu + r) <= logMax - 0.5 * Math.log(n)) return { aligned: false, n };
    }
    return { aligned: false, n: 1 };
  }

  /** One exact draw from q̃ with proposal width n (from {@link width}); NaN after `maxProposals` rejections. */
  draw(y: number, mu: number, v: number, n: number, rng: Rng): number {
    const logMax = this.likelihood.logMaxDensity(y);
    const sd = Math.sqrt(n * v);
    for (let k = 0; k < this.maxProposals; k++) {
      this.proposals += 1;
      const f = mu + sd * rng.normal();
      const logRatio = this.likelihood.logDensity(y, f) + normalLogPdf(f, mu, v) - logMax - normalLogPdf(f, mu, n * v);
      if (Math.log(rng.nextDouble()) <= logRatio) return f;
    }
    return Number.NaN;
  }
}
