import type { RandomFourierFeatures } from '../../features/random-fourier-features.js';

/**
 * The discrete relaxation (Evans & Nair §3): weight j takes one of the m̄ values
 * `support[j·m̄ .. j·m̄+m̄)` (ascending) with prior log-probabilities `logPrior` (same layout), and the
 * noise variance σ² takes one of the K values `noiseSupport` with prior `logNoisePrior`.
 */
export interface DirectGrid {
  /** Number of weights (basis functions) b. */
  readonly b: number;
  /** Atoms per weight m̄. */
  readonly mbar: number;
  /** Noise-variance atoms K (0 for the logistic model). */
  readonly K: number;
  readonly support: Float64Array;
  readonly logPrior: Float64Array;
  readonly noiseSupport: Float64Array;
  readonly logNoisePrior: Float64Array;
}

/**
 * Sufficient statistics of y = Φw + ε (Theorem 1 needs nothing else): ΦᵀΦ (b×b), Φᵀy, yᵀy and the
 * weighted count n, all record-weighted; `records` counts rows absorbed. Accumulation writes the
 * upper triangle of `gram` only; `complete` says whether the lower one mirrors it (see `completeGram`).
 */
export interface DirectStatistics {
  readonly b: number;
  readonly gram: Float64Array;
  readonly phiTy: Float64Array;
  yty: number;
  n: number;
  records: number;
  complete: boolean;
}

/** Fit settings of the DIRECT families. */
export interface DirectSettings {
  /** Starts of the L-BFGS fit (the warm start plus restarts − 1 seeded random starts). */
  readonly restarts: number;
  readonly seed: number;
  /** L-BFGS iteration cap per start (paper: 1000). */
  readonly maxIter: number;
  /** Re-fit after this many records (0: only when the posterior is needed). */
  readonly refitEvery: number;
  /** CAVI sweeps that initialise each L-BFGS start (0: L-BFGS straight from the start, as the paper). */
  readonly caviSweeps: number;
  /** Mixture components r of q(w) (1: mean field). */
  readonly components: number;
  /** Mixture fit: Adam steps, learning rate, entropy gradient (eq. 11 draws or the Theorem-3 bound) and draws per step. */
  readonly mixtureSteps: number;
  readonly mixtureLearningRate: number;
  readonly mixtureEntropy: 'stochastic' | 'bound';
  readonly entropySamples: number;
}

/** How the fit that produced the state's logits went (not part of the snapshot: after a restore, no fit has run). */
export interface DirectFitDiagnostics {
  readonly iterations: number;
  readonly converged: boolean;
  /** ELBO reached from each start. */
  readonly startElbos: number[];
}

/**
 * Everything a `direct` model is: grid, statistics, the committed variational parameters and the
 * settings. `logits` and `mixture` change only when a fit is committed (`refitEvery` inside an
 * update, or `refit()`); a read fits from them into the workspace and leaves the state alone. The
 * statistics of a committed state are always complete (both triangles of ΦᵀΦ).
 */
export interface DirectState {
  /** Input width of a record: b, or the raw input dimension when a feature map is set. */
  readonly dim: number;
  readonly grid: DirectGrid;
  readonly features: RandomFourierFeatures | undefined;
  readonly stats: DirectStatistics;
  readonly settings: DirectSettings;
  /** Variational parameters: b·m̄ weight logits then K noise logits (see `DirectElbo`); the warm start of the next fit. */
  readonly logits: Float64Array;
  /** Mixture parameters (see `DirectMixtureElbo`) when components > 1, else empty. */
  readonly mixture: Float64Array;
  /** True when the statistics changed since `logits` were fitted. */
  stale: boolean;
  /** Records absorbed since the last committed fit. */
  sinceFit: number;
  lastFit: DirectFitDiagnostics;
}
