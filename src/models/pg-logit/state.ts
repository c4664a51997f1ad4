import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import type { PgLogitOptions, PgLogitUpdateMode } from './options.js';
import { refreshMoments } from './refresh-moments.js';
import { resolvePgLogitPrior, type ResolvedPgLogitPrior } from './resolve-pg-logit-prior.js';

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
  readonly prior: ResolvedPgLogitPrior;
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

/** q(β) = the prior, no records; a bad option value throws `ConfigError` (`svi` needs `effectiveSize`, `sda` refuses it). */
export function createPgLogitState(dim: number, options: PgLogitOptions): PgLogitState {
  const mode = optionChecks.oneOf('mode', options.mode, 'sda', ['sda', 'svi'] as const);
  const prior = resolvePgLogitPrior(dim, options.prior);
  if (mode === 'svi' && options.effectiveSize === undefined) {
    throw new ConfigError('svi mode needs the effective data size N (the number of records the posterior represents)', { field: 'effectiveSize' });
  }
  if (mode === 'sda' && options.effectiveSize !== undefined) throw new ConfigError('effectiveSize applies to svi mode only', { field: 'effectiveSize', value: options.effectiveSize });
  const state: PgLogitState = {
    dim, prior,
    settings: {
      mode,
      tol: options.tol === undefined ? 1e-10 : optionChecks.positive('tol', options.tol, 1e-10),
      relativeTol: options.tol !== undefined,
      maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 10_000),
      tau: optionChecks.nonNegative('tau', options.tau, 1),
      kappa: optionChecks.inRange('kappa', options.kappa, 0.75, 0.5, 1, true),
      effectiveSize: mode === 'svi' ? optionChecks.positive('effectiveSize', options.effectiveSize, 1) : Number.NaN,
    },
    shift: prior.shift.slice(), precision: prior.precision.slice(), factor: new Float64Array(dim * dim), mean: prior.mean.slice(),
    step: 0, records: 0, elbo: Number.NaN, iterations: 0,
  };
  refreshMoments(state.shift, state.precision, dim, state.factor, state.mean);
  return state;
}
