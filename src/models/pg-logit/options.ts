import type { OptionDocs } from '../../core/option-docs.js';
import type { GaussianPriorOptions } from '../../gaussian/gaussian-prior-options.js';

/** How `update(batch)` absorbs a batch: one Robbins–Monro step, or CAVI with the posterior as prior. */
export type PgLogitUpdateMode = 'svi' | 'sda';

/** Options of `pg-logit`. */
export interface PgLogitOptions {
  /** `sda` (default): CAVI on each batch with the current posterior as prior; `svi`: one SVI step per batch. */
  readonly mode?: PgLogitUpdateMode;
  /** Prior N(μ₀, Σ₀) (`{mean, covariance}`); default N(0, 10·I) (the paper's Figure 1). */
  readonly prior?: GaussianPriorOptions;
  /** CAVI stops when |ΔELBO| < tol·|ELBO|; without it, when |ΔELBO| < 1e-10 (absolute: the reference rule). */
  readonly tol?: number;
  /** Maximum CAVI sweeps per update; default 10,000. */
  readonly maxIter?: number;
  /** SVI delay τ ≥ 0 in ρ_t = (t + τ)^−κ; default 1. */
  readonly tau?: number;
  /** SVI forgetting rate κ ∈ (0.5, 1]; default 0.75. */
  readonly kappa?: number;
  /**
   * SVI only, and required there: the effective data size N, the n of Algorithm 3. Each step scales
   * its minibatch by N/|B|, so the posterior represents N records: on a stream, a window of about
   * the last N records.
   */
  readonly effectiveSize?: number;
  /**
   * `sda` only: the most recent records kept with their local ξ and re-optimised with every update,
   * older records frozen as the second-order expansion of their re-optimised sites; default 2000, 0
   * for plain streaming VB. With at least as many records as seen, any batching ends at the one-batch
   * CAVI fixed point.
   */
  readonly replay?: number;
}

/** What each option of {@link PgLogitOptions} means. */
export const PG_LOGIT_OPTION_DOCS: OptionDocs = {
  mode: 'sda (default): CAVI on each batch with the current posterior as prior (streaming VB); svi: one SVI step per batch (Algorithm 3)',
  prior: {
    mean: 'prior mean μ₀: a number (every coefficient) or one per coefficient (default 0)',
    covariance: 'prior covariance Σ₀: a variance, one variance per coefficient, a d×d matrix as rows or d·d values row by row (default 10, the paper\'s Figure 1)',
  },
  tol: 'CAVI stops when |ΔELBO| < tol·|ELBO| (default: |ΔELBO| < 1e-10 absolute, the reference rule)',
  maxIter: 'maximum CAVI sweeps per update (default 10,000)',
  tau: 'SVI delay τ ≥ 0 in the step size ρ_t = (t + τ)^−κ (default 1)',
  kappa: 'SVI forgetting rate κ in (0.5, 1] (default 0.75)',
  effectiveSize: 'svi only, required there: the number N of records the posterior represents; each step scales its batch by N/|B|',
  replay: 'sda only: the most recent records kept with their local ξ and re-optimised by every update\'s CAVI (their Pólya-gamma/Jaakkola–Jordan sites removed and re-added); a record leaving them is frozen into the natural parameters as the second-order expansion, around the current mean, of its re-optimised site (default 2000; 0: plain streaming VB, each batch\'s ξ optimised once and its sites frozen at them, the behaviour before the replay). With at least as many records as seen, any batching ends at the one-batch CAVI fixed point',
};
