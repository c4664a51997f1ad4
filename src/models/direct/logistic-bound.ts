import type { DirectGrid } from './state.js';
import { softmaxRows } from './softmax-rows.js';

/**
 * The DIRECT logistic-regression ELBO lower bound of Evans & Nair, Theorem 2 (eq. 10), in the usual
 * convention Pr(y = 1 | w) = σ(φᵀw) (the paper's Pr(y = 0 | w) = σ(φᵀw) is the same bound with the
 * labels swapped). With c_i = ±1 the signed label, log σ(c_i z_i) ≥ −exp(−c_i z_i) and, under the
 * factorised q, E_q[exp(−c_i φ_iᵀw)] = Π_j q_jᵀexp(−c_i φ_ij w̄_j). Computed in log space as the
 * paper's appendix-B remark says: log term_i = Σ_j logsumexp_m(log q_jm − c_i φ_ij w̄_jm), bound_i =
 * −exp(log term_i). The ELBO bound is scale·Σ_i bound_i + Σ_j q_jᵀ(log p_j − log q_j), where scale
 * = N/|batch| turns a minibatch into an unbiased estimate of the full-data bound. O(n·b·m̄) per
 * evaluation, no allocation.
 */
export class DirectLogisticBound {
  readonly size: number;
  readonly q: Float64Array;
  readonly logQ: Float64Array;
  /** Σ_i bound_i (unscaled) at the last evaluation. */
  expectedLogLikelihoodBound = 0;
  /** Σ_i ω_i E_q[exp(−c_i φ_iᵀw)] at the last evaluation. */
  termSum = 0;
  private readonly gq: Float64Array;
  private readonly rowLogTerms: Float64Array;
  private readonly shifted: Float64Array;

  constructor(readonly grid: DirectGrid) {
    this.size = grid.b * grid.mbar;
    this.q = new Float64Array(this.size);
    this.logQ = new Float64Array(this.size);
    this.gq = new Float64Array(this.size);
    this.rowLogTerms = new Float64Array(grid.b);
    this.shifted = new Float64Array(grid.mbar);
  }

  /**
   * log term_i for the row `phi[offset .. offset+b)` with signed label `c`, from q at the last
   * evaluation, or from the factorised q whose logs are `logQ[at .. at + b·m̄)` (a mixture's component).
   */
  logTerm(phi: Float64Array, offset: number, c: number, logQ: Float64Array = this.logQ, at = 0): number {
    const { b, mbar, support } = this.grid;
    let total = 0;
    for (let j = 0; j < b; j++) {
      const x = -c * phi[offset + j];
      let max = -Infinity;
      for (let m = 0; m < mbar; m++) {
        const v = logQ[at + j * mbar + m] + x * support[j * mbar + m];
        this.shifted[m] = v;
        if (v > max) max = v;
      }
      let sum = 0;
      for (let m = 0; m < mbar; m++) sum += Math.exp(this.shifted[m] - max);
      const lse = max + Math.log(sum);
      this.rowLogTerms[j] = lse;
      total += lse;
    }
    return total;
  }

  /**
   * Σ_i bound_i = −Σ_i ω_i E_q[exp(−c_i φ_iᵀw)] under the factorised q whose logs are `logQ[at .. at + b·m̄)`
   * (also kept in `expectedLogLikelihoodBound`, and Σ_i ω_i E_q[exp(−c_i φ_iᵀw)] in `termSum`); with `gq`,
   * writes q_jm·∂/∂q_jm of it into `gq[at .. at + b·m̄)`.
   */
  expectedLikelihood(logQ: Float64Array, at: number, phi: Float64Array, signs: Float64Array, n: number, weights?: Float64Array, gq?: Float64Array): number {
    const { b, mbar, support } = this.grid;
    if (gq !== undefined) gq.fill(0, at, at + this.size);
    let likelihood = 0;
    let termSum = 0;
    for (let i = 0; i < n; i++) {
      const c = signs[i];
      const logTerm = this.logTerm(phi, i * b, c, logQ, at);
      const term = (weights === undefined ? 1 : weights[i]) * Math.exp(logTerm);
      likelihood -= term;
      termSum += term;
      if (gq === undefined) continue;
      for (let j = 0; j < b; j++) {
        const x = -c * phi[i * b + j];
        const lse = this.rowLogTerms[j];
        for (let m = 0; m < mbar; m++) {
          const k = j * mbar + m;
          gq[at + k] -= term * Math.exp(logQ[at + k] + x * support[k] - lse);
        }
      }
    }
    this.expectedLogLikelihoodBound = likelihood;
    this.termSum = termSum;
    return likelihood;
  }

  /**
   * The ELBO bound at `logits` (b×m̄) for n rows of features `phi` (row-major n×b) with signed labels
   * `signs` (±1) and optional record weights, the likelihood scaled by `scale`; writes ∂/∂logits
   * into `gradient` when given.
   */
  evaluate(logits: Float64Array, phi: Float64Array, signs: Float64Array, n: number, scale: number, gradient?: Float64Array, weights?: Float64Array): number {
    const { b, mbar, logPrior } = this.grid;
    const { q, logQ, gq } = this;
    softmaxRows(logits, 0, b, mbar, q, logQ);
    const likelihood = this.expectedLikelihood(logQ, 0, phi, signs, n, weights, gradient === undefined ? undefined : gq);
    const termSum = this.termSum;
    let kl = 0;
    for (let k = 0; k < this.size; k++) kl += q[k] * (logPrior[k] - logQ[k]);
    if (gradient !== undefined) {
      for (let j = 0; j < b; j++) {
        let avg = 0;
        for (let m = 0; m < mbar; m++) {
          const k = j * mbar + m;
          gradient[k] = q[k] * (logPrior[k] - logQ[k]);
          avg += gradient[k];
        }
        for (let m = 0; m < mbar; m++) {
          const k = j * mbar + m;
          gradient[k] = gradient[k] - q[k] * avg + scale * (gq[k] + termSum * q[k]);
        }
      }
    }
    return scale * likelihood + kl;
  }
}
