import type { BernoulliLogitMethod } from '../../likelihoods/bernoulli-logit.js';

/** Full covariance Σ = LLᵀ (the paper's Q') or diagonal (mean-field, Q). */
export type CovarianceForm = 'full' | 'diagonal';

/** `sda`: each update optimises on its batch with the current q as the prior; `svi`: Adam steps on the minibatch objective scaled by N/B. */
export type StreamingMode = 'sda' | 'svi';

/** Settings fixed at creation (validated by `resolveViPerSettings`). */
export interface ViPerSettings {
  readonly covariance: CovarianceForm;
  readonly method: BernoulliLogitMethod;
  /** VI-PER series parameter (2l − 1 terms). */
  readonly l: number;
  /** Gauss–Hermite nodes of the objective (method `gauss-hermite`). */
  readonly points: number;
  /** Monte Carlo draws (method `monte-carlo`) and their seed. */
  readonly samples: number;
  readonly seed: number;
  /** L-BFGS: relative objective change that stops, and the iteration cap. */
  readonly tol: number;
  readonly maxIter: number;
  readonly streaming: StreamingMode;
  /** SVI: Adam learning rate, steps per batch, and the effective data size N (0: the records seen so far). */
  readonly learningRate: number;
  readonly stepsPerBatch: number;
  readonly dataSize: number;
}

/** What a vi-per model holds: q(β) = N(mu, LLᵀ), the original prior, and the SVI optimiser state. */
export interface ViPerState {
  readonly dim: number;
  readonly settings: ViPerSettings;
  /** The prior's mean and lower Cholesky factor of its covariance. */
  readonly priorMean: Float64Array;
  readonly priorFactor: Float64Array;
  readonly mu: Float64Array;
  /** Lower Cholesky factor of Σ (row-major d×d; diagonal for mean-field). */
  readonly factor: Float64Array;
  records: number;
  /** F at the end of the last update (NaN before any). */
  objective: number;
  iterations: number;
  /** Adam state (SVI) as `Adam.state()`, empty until the first SVI step. */
  adam: Float64Array;
  /** Rng state for fresh Monte Carlo draws in SVI (`Rng.getState()`). */
  rng: Float64Array;
}
