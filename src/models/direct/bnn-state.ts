import type { DirectFitDiagnostics, DirectGrid } from './state.js';

/**
 * The network of `direct-bnn` (Evans & Nair appendix D, one hidden layer): with x̃ = (x, 1) ∈ ℝ^D,
 * D = d + 1 (the bias as an input fixed to unity, as the paper adds it),
 *
 *   f(x) = Σ_h v_h (u_hᵀx̃)² + c,
 *
 * weights ordered u (H×D row-major: u_hi at h·D + i), then v (H), then c: b = H·D + H + 1.
 */
export interface DirectBnnShape {
  /** Input dimension d. */
  readonly d: number;
  /** D = d + 1. */
  readonly D: number;
  /** Hidden units H. */
  readonly H: number;
  /** Weights b = H·D + H + 1. */
  readonly b: number;
}

/**
 * What the ELBO needs of the data (appendix D, eq. 34–39 specialised to one quadratic layer): the
 * fourth-moment tensor T = Σ_n w_n x̃_n⊗x̃_n⊗x̃_n⊗x̃_n (packed: its C(D+3, 4) distinct entries
 * T_ijkl, i ≤ j ≤ k ≤ l, in lexicographic order), the label-weighted second moments
 * S = Σ_n w_n y_n x̃_n x̃_nᵀ (packed: C(D+1, 2) entries S_ij, i ≤ j), yᵀWy and the records absorbed.
 * Because x̃_D = 1, T also holds Σ w x̃x̃ᵀ (T_ijDD), Σ w x̃ and the weighted count n (T_DDDD); S holds Σ w y x̃
 * and Σ w y. Their size does not depend on n.
 */
export interface DirectBnnStatistics {
  readonly fourth: Float64Array;
  readonly crossY: Float64Array;
  yty: number;
  records: number;
}

/** Fit settings of `direct-bnn`. */
export interface DirectBnnSettings {
  readonly restarts: number;
  readonly seed: number;
  readonly maxIter: number;
  readonly refitEvery: number;
  readonly initScale: number;
  /** Entropy temperatures τ > 1 of the annealing stages before the exact ELBO (empty: L-BFGS on the exact ELBO alone, as the paper). */
  readonly temperatures: readonly number[];
}

/**
 * Everything a `direct-bnn` model is: shape, grid (b weights, K noise atoms), statistics, the
 * committed logits (b·m̄ weight logits then K noise logits; the warm start of the next fit) and the
 * settings. As in `direct`, `logits` change only when a fit is committed.
 */
export interface DirectBnnState {
  readonly dim: number;
  readonly shape: DirectBnnShape;
  readonly grid: DirectGrid;
  readonly stats: DirectBnnStatistics;
  readonly settings: DirectBnnSettings;
  readonly logits: Float64Array;
  stale: boolean;
  sinceFit: number;
  lastFit: DirectFitDiagnostics;
}
