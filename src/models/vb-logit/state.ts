import type { GaussianPosterior } from '../../gaussian/gaussian-posterior.js';

/** Gamma hyperprior α ~ Gam(a0, b0) (shape, rate) on the weight precision (Drugowitsch eq. 41). */
export interface VbLogitPrior {
  readonly a0: number;
  readonly b0: number;
}

/**
 * State of `vb-logit` / `vb-logit-ard`. The data enter q(w) only through natural-parameter sums,
 * Λ = Σ 2λ(ξₙ)xₙxₙᵀ and t = Σ yₙxₙ/2 (eq. 46–47), and the bound through Σ(ln σ(ξₙ) − ξₙ/2 + λ(ξₙ)ξₙ²);
 * on a stream each batch's ξ are optimised when it arrives and then frozen (streaming VB in the
 * sense of Broderick et al. 2013), so the state never grows with n.
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
  /** Λ = Σ 2λ(ξₙ)·wₙ·xₙxₙᵀ over absorbed records (d×d). */
  readonly dataPrecision: Float64Array;
  /** t = Σ wₙ·yₙxₙ/2 (d). */
  readonly dataShift: Float64Array;
  /** Σ wₙ·(ln σ(ξₙ) − ξₙ/2 + λ(ξₙ)ξₙ²) over absorbed records. */
  frozenBound: number;
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

/** VBLinLogit's defaults: a0 = 1e-2, b0 = 1e-4. */
export const VB_LOGIT_DEFAULT_PRIOR: VbLogitPrior = { a0: 1e-2, b0: 1e-4 };
