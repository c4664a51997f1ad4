import { optionChecks } from '../../core/option-checks.js';
import { jaakkolaJordanSites, type JaakkolaJordanSites } from '../../likelihoods/jaakkola-jordan-sites.js';
import type { GaussianPosterior } from '../../gaussian/gaussian-posterior.js';
import { identity } from '../../linalg/identity.js';
import type { VbLogitOptions } from './options.js';

/** Gamma hyperprior α ~ Gam(a0, b0) (shape, rate) on the weight precision (Drugowitsch eq. 41). */
export interface VbLogitPrior {
  readonly a0: number;
  readonly b0: number;
}

/**
 * State of `vb-logit` / `vb-logit-ard`. The data enter q(w) only through natural-parameter sums,
 * Λ = Σ 2λ(ξₙ)xₙxₙᵀ and t = Σ yₙxₙ/2 (eq. 46–47), and the bound through Σ(ln σ(ξₙ) − ξₙ/2 + λ(ξₙ)ξₙ²);
 * on a stream the last `replay` records keep their ξ (`sites`), re-optimised with every update, and
 * older records are frozen in those sums (streaming VB in the sense of Broderick et al. 2013, with a
 * bounded replay; see `foldJaakkolaJordanSites`), so the state never grows with n. Λ and the bound
 * sum hold the frozen records only; t holds every record's yₙxₙ/2.
 */
export interface VbLogitState {
  readonly dim: number;
  readonly ard: boolean;
  readonly prior: VbLogitPrior;
  readonly tol: number;
  readonly maxIter: number;
  /**
   * A fixed prior precision α (prior N(0, I/α), no hyperprior, no q(α) update), or undefined for the
   * Gamma hyperprior of eq. (41). With it the bound is the plain Jaakkola–Jordan bound.
   */
  readonly fixedAlpha?: number;
  /** The most recent records replayed with every update (0: none, plain streaming VB). */
  readonly replay: number;
  /** Λ = Σ 2λ(ξₙ)·wₙ·xₙxₙᵀ over frozen records (d×d; with a replay, the second-order sites' curvatures in place of 2λ(ξₙ)). */
  readonly dataPrecision: Float64Array;
  /** t = Σ wₙ·yₙxₙ/2 over all absorbed records (d), plus the second-order sites' shift corrections. */
  readonly dataShift: Float64Array;
  /** Σ wₙ·(ln σ(ξₙ) − ξₙ/2 + λ(ξₙ)ξₙ²) over frozen records (with a replay, their terms when frozen). */
  frozenBound: number;
  /** The replayed window (capacity `replay`). */
  readonly sites: JaakkolaJordanSites;
  records: number;
  readonly posterior: GaussianPosterior;
  /** E[α] that built the current V⁻¹ (length 1, or d with ARD). */
  readonly expectedAlpha: Float64Array;
  /** Variational bound with constants at the current posterior. */
  bound: number;
  /** VB passes of the last update. */
  iterations: number;
  /** Why the last update's passes stopped (the reference stops on a bound decrease too). */
  stopReason: 'converged' | 'bound-decreased' | 'max-iterations';
}

/** The default `replay`: measured in bench/streaming-quality.bench.ts (docs/guide.md). */
export const VB_LOGIT_DEFAULT_REPLAY = 2000;

/** VBLinLogit's defaults: a0 = 1e-2, b0 = 1e-4. */
export const VB_LOGIT_DEFAULT_PRIOR: VbLogitPrior = { a0: 1e-2, b0: 1e-4 };

/**
 * The state of a model with no data: q(w) is the prior N(0, I/α₀) with α₀ = a0/b0 (or the fixed α);
 * a bad option value throws `ConfigError`.
 */
export function createVbLogitState(dim: number, ard: boolean, options: VbLogitOptions): VbLogitState {
  const prior = {
    a0: optionChecks.positive('prior.a0', options.prior?.a0, VB_LOGIT_DEFAULT_PRIOR.a0),
    b0: optionChecks.positive('prior.b0', options.prior?.b0, VB_LOGIT_DEFAULT_PRIOR.b0),
  };
  const fixedAlpha = options.alpha === undefined ? undefined : optionChecks.positive('alpha', options.alpha, 1);
  const alpha0 = fixedAlpha ?? prior.a0 / prior.b0;
  const replay = optionChecks.nonNegativeInteger('replay', options.replay, VB_LOGIT_DEFAULT_REPLAY);
  return {
    dim, ard, prior, fixedAlpha,
    tol: optionChecks.positive('tol', options.tol, 1e-5),
    maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 500), replay,
    dataPrecision: new Float64Array(dim * dim), dataShift: new Float64Array(dim), frozenBound: 0, sites: jaakkolaJordanSites(replay, dim), records: 0,
    posterior: { w: new Float64Array(dim), V: identity(dim, 1 / alpha0), invV: identity(dim, alpha0), logDetV: -dim * Math.log(alpha0), q: 0 },
    expectedAlpha: new Float64Array(ard ? dim : 1).fill(alpha0), bound: Number.NaN, iterations: 0, stopReason: 'converged',
  };
}
