import type { PgLogitPrior } from './prior.js';

/**
 * The prior part of the Pólya-gamma ELBO, E_q[ln p(β)] − E_q[ln q(β)] = −KL(N(μ, Σ) ‖ N(μ₀, Σ₀)) =
 * d/2 + ½ln|Σ| + ½ln|Σ₀⁻¹| − ½(μ − μ₀)ᵀΣ₀⁻¹(μ − μ₀) − ½tr(Σ₀⁻¹Σ) (Durante & Rigon eq. 2.3 with the
 * Gaussian q of Algorithm 2). `cov` is Σ (d×d), `logdetCov` = ln|Σ|; `work` (length d) is scratch.
 */
export function priorElbo(d: number, mean: Float64Array, cov: Float64Array, logdetCov: number, prior: PgLogitPrior, work: Float64Array): number {
  for (let i = 0; i < d; i++) work[i] = mean[i] - prior.mean[i];
  let quad = 0;
  let traceTerm = 0;
  for (let i = 0; i < d; i++) {
    const row = i * d;
    let s = 0;
    for (let j = 0; j < d; j++) {
      s += prior.precision[row + j] * work[j];
      traceTerm += prior.precision[row + j] * cov[row + j];
    }
    quad += work[i] * s;
  }
  return 0.5 * (d + logdetCov + prior.logdetPrecision - quad - traceTerm);
}
