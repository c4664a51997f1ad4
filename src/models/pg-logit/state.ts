import type { PgLogitPrior } from './prior.js';

/** How `update(batch)` absorbs a batch: one Robbins–Monro step, or CAVI with the posterior as prior. */
export type PgLogitUpdateMode = 'svi' | 'sda';

/** Settings fixed at construction. */
export interface PgLogitSettings {
  readonly mode: PgLogitUpdateMode;
  /** CAVI stops when |ΔELBO| < tol (absolute) or < tol·|ELBO| (relative), from the second sweep on. */
  readonly tol: number;
  readonly relativeTol: boolean;
  /** Maximum CAVI sweeps per update. */
  readonly maxIter: number;
  /** SVI step ρ_t = (t + τ)^−κ. */
  readonly tau: number;
  readonly kappa: number;
  /** SVI: the number of records N the posterior represents (the n of Algorithm 3); NaN in `sda` mode. */
  readonly effectiveSize: number;
}

/**
 * State of `pg-logit` (Durante & Rigon §3): q(β) = N(μ, Σ) held by its natural parameters λ₁ = Σ⁻¹μ
 * (`shift`) and λ₂ = −½Σ⁻¹, stored as the precision −2λ₂ (`precision`) with its lower Cholesky factor
 * (`factor`) for solves, and the mean μ kept current from them. No data are retained.
 */
export interface PgLogitState {
  readonly dim: number;
  readonly prior: PgLogitPrior;
  readonly settings: PgLogitSettings;
  /** λ₁ = Σ⁻¹μ. */
  readonly shift: Float64Array;
  /** −2λ₂ = Σ⁻¹ (d×d). */
  readonly precision: Float64Array;
  /** Lower Cholesky factor of `precision`. */
  readonly factor: Float64Array;
  /** μ = (−2λ₂)⁻¹λ₁. */
  readonly mean: Float64Array;
  /** SVI steps taken (the t of ρ_t). */
  step: number;
  /** Records absorbed (scaled by forgetting). */
  records: number;
  /** ELBO of the last CAVI update (relative to the prior it used), NaN after an SVI step. */
  elbo: number;
  /** CAVI sweeps of the last update (1 for an SVI step). */
  iterations: number;
}
