import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import { jaakkolaJordanSites, type JaakkolaJordanSites } from '../../likelihoods/jaakkola-jordan-sites.js';
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
  /** `sda`: the most recent records whose ξ are re-optimised with every update (0: none, plain streaming VB; always 0 under `svi`). */
  readonly replay: number;
}

/** The default `replay` of `sda`: measured in bench/streaming-quality.bench.ts (docs/guide.md). */
export const PG_LOGIT_DEFAULT_REPLAY = 2000;

/**
 * State of `pg-logit` (Durante & Rigon §3): q(β) = N(μ, Σ) held by its natural parameters λ₁ = Σ⁻¹μ
 * (`shift`) and λ₂ = −½Σ⁻¹, stored as the precision −2λ₂ (`precision`) with its lower Cholesky factor
 * (`factor`) for solves, and the mean μ kept current from them. In `sda` mode the last `replay` records
 * are kept with their ξ (`sites`) and re-optimised with every update; q's natural parameters are then
 * the base (`baseShift`, `basePrecision`: the prior and the frozen sites of every older record, see
 * `foldJaakkolaJordanSites`) plus the window's sites. Without a window the base is q.
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
  /** λ₁ and −2λ₂ of the prior and the frozen sites (q without the window's sites). */
  readonly baseShift: Float64Array;
  readonly basePrecision: Float64Array;
  /** The replayed window (capacity `settings.replay`). */
  readonly sites: JaakkolaJordanSites;
  /** SVI steps taken (the t of ρ_t). */
  step: number;
  /** Records absorbed (scaled by forgetting). */
  records: number;
  /** ELBO of the last CAVI update (relative to the prior it used), NaN after an SVI step. */
  elbo: number;
  /** CAVI sweeps of the last update (1 for an SVI step). */
  iterations: number;
}

/** `replay`: a non-negative safe integer under `sda` (default {@link PG_LOGIT_DEFAULT_REPLAY}); under `svi` only 0 or absent. */
function replay(value: unknown, mode: PgLogitUpdateMode): number {
  if (mode === 'svi') {
    if (value !== undefined && value !== 0) throw new ConfigError('applies to `sda` mode only: leave it out (or 0) with `svi`', { field: 'replay', value });
    return 0;
  }
  return optionChecks.nonNegativeInteger('replay', value, PG_LOGIT_DEFAULT_REPLAY);
}

/** q(β) = the prior, no records; a bad option value throws `ConfigError` (`svi` needs `effectiveSize`, `sda` refuses it). */
export function createPgLogitState(dim: number, options: PgLogitOptions): PgLogitState {
  const mode = optionChecks.oneOf('mode', options.mode, 'sda', ['sda', 'svi'] as const);
  const prior = resolvePgLogitPrior(dim, options.prior);
  if (mode === 'svi' && options.effectiveSize === undefined) {
    throw new ConfigError('svi mode needs the effective data size N (the number of records the posterior represents)', { field: 'effectiveSize' });
  }
  if (mode === 'sda' && options.effectiveSize !== undefined) throw new ConfigError('effectiveSize applies to svi mode only', { field: 'effectiveSize', value: options.effectiveSize });
  const window = replay(options.replay, mode);
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
      replay: window,
    },
    shift: prior.shift.slice(), precision: prior.precision.slice(), factor: new Float64Array(dim * dim), mean: prior.mean.slice(),
    baseShift: prior.shift.slice(), basePrecision: prior.precision.slice(), sites: jaakkolaJordanSites(window, dim),
    step: 0, records: 0, elbo: Number.NaN, iterations: 0,
  };
  refreshMoments(state.shift, state.precision, dim, state.factor, state.mean);
  return state;
}
