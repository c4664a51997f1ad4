import type { BernoulliLogitMethod } from '../../likelihoods/bernoulli-logit.js';
import type { CovarianceForm, StreamingMode } from './state.js';

/**
 * Options of the vi-per families (`vi-per`, `vi-per-mf`, `vi-gh`, `vi-mc`). The prior is
 * N(mean, variance): a scalar mean or variance is isotropic, an array gives one value per
 * coefficient, and a d×d array (variance) is a full covariance; default N(0, I) as in the paper.
 */
export interface ViPerOptions {
  readonly prior?: { readonly mean?: number | readonly number[]; readonly variance?: number | readonly number[] | readonly (readonly number[])[] };
  /** `full` (Σ = LLᵀ) or `diagonal` (mean-field); each family id has its default. */
  readonly covariance?: CovarianceForm;
  /** The expected log-likelihood evaluator; each family id has its default. */
  readonly method?: BernoulliLogitMethod;
  /** VI-PER l (2l − 1 series terms); default 12. */
  readonly l?: number;
  /** Gauss–Hermite nodes for `gauss-hermite`; default 100. */
  readonly points?: number;
  /** Monte Carlo draws for `monte-carlo` (default 1000, the paper's) and their seed (default 1). */
  readonly samples?: number;
  readonly seed?: number;
  /** L-BFGS stopping rule: relative change of F (default 1e-12: L-BFGS gets there in a few more steps, and 1e-9 leaves μ ~2e-6 off the optimum; the paper's Adam uses 1e-6 to 1e-8) and iteration cap (default 1000). */
  readonly tol?: number;
  readonly maxIter?: number;
  /** `sda` (default) or `svi`. */
  readonly streaming?: StreamingMode;
  /** SVI only: Adam learning rate (default 0.05), Adam steps per batch (default 1), effective data size N (default 0: the records seen so far). */
  readonly learningRate?: number;
  readonly stepsPerBatch?: number;
  readonly dataSize?: number;
}
