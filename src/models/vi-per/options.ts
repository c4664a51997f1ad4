import type { OptionDocs } from '../../core/option-docs.js';
import type { GaussianPriorOptions } from '../../gaussian/gaussian-prior-options.js';
import type { BernoulliLogitMethod } from '../../likelihoods/bernoulli-logit.js';

/** Full covariance Σ = LLᵀ (the paper's Q') or diagonal (mean-field, Q). */
export type CovarianceForm = 'full' | 'diagonal';

/** `sda`: each update optimises on its batch with the current q as the prior; `svi`: stochastic (natural-gradient or Adam) steps on the minibatch objective scaled by N/B. */
export type StreamingMode = 'sda' | 'svi';

/** The optimiser of `svi`: natural-gradient SVI with a Robbins–Monro step (default) or Adam. */
export type SviOptimizer = 'natural' | 'adam';

/** How `sda` refits after the first update: `natural` (Newton-type natural-gradient passes, records folded as frozen sites) or `lbfgs` (L-BFGS every update, records folded by a fit). */
export type RefitMethod = 'natural' | 'lbfgs';

/** Options of the vi-per families (`vi-per`, `vi-per-mf`, `vi-gh`, `vi-mc`); see {@link VI_PER_OPTION_DOCS}. */
export interface ViPerOptions {
  /** The prior N(mean, covariance); default N(0, I) as in the paper. */
  readonly prior?: GaussianPriorOptions;
  /** `full` (Σ = LLᵀ) or `diagonal` (mean-field); each family id has its default. */
  readonly covariance?: CovarianceForm;
  /** The expected log-likelihood evaluator; each family id has its default. */
  readonly method?: BernoulliLogitMethod;
  readonly l?: number;
  readonly points?: number;
  readonly samples?: number;
  readonly seed?: number;
  readonly tol?: number;
  readonly maxIter?: number;
  readonly streaming?: StreamingMode;
  readonly replay?: number;
  readonly learningRate?: number;
  readonly stepsPerBatch?: number;
  readonly dataSize?: number;
  readonly optimizer?: SviOptimizer;
  readonly tau?: number;
  readonly kappa?: number;
  readonly refit?: RefitMethod;
  readonly refitFraction?: number;
}

/** What each option of {@link ViPerOptions} means. */
export const VI_PER_OPTION_DOCS: OptionDocs = {
  prior: {
    mean: 'prior mean: a number (every coefficient) or one per coefficient (default 0)',
    covariance: 'prior covariance: a variance (isotropic), one variance per coefficient, a d×d matrix or d·d values row by row (default 1: N(0, I) as in the paper)',
  },
  covariance: 'form of q\'s covariance: `full` (Σ = LLᵀ, the paper\'s Q\') or `diagonal` (mean-field, Q); default `full`, `diagonal` for vi-per-mf',
  method: 'expected log-likelihood evaluator: `viper` (the VI-PER bound), `gauss-hermite` (exact ELBO), `monte-carlo` (VI-MC) or `jj` (Jaakkola–Jordan/PG bound); default set by the family id',
  l: 'VI-PER series parameter, 2l − 1 terms (default 12)',
  points: 'Gauss–Hermite nodes for `gauss-hermite`, at most 360 (default 100)',
  samples: 'Monte Carlo draws for `monte-carlo` (default 1000, the paper\'s)',
  seed: 'seed of the Monte Carlo draws, a safe integer (default 1)',
  tol: 'L-BFGS stops when F changes by less than this, relatively (default 1e-12: 1e-9 leaves μ about 2e-6 from the optimum)',
  maxIter: 'L-BFGS iteration cap per update (default 1000)',
  streaming: '`sda` (each update fits its batch with the current q as the prior; default) or `svi` (stochastic steps on the N/B-scaled minibatch objective (N/B)·Σ_batch E log p − KL(q ‖ prior))',
  replay: '`sda`: the most recent records kept and refitted with every update, q = fit(data = those records, prior = q_a, the Gaussian of all earlier records); older ones are folded into q_a by a streaming step as they leave (q_a has full covariance, for vi-per-mf too, so the correlations of the records folded are kept; default 2000; 0: plain streaming VB, each batch fitted once with the current q as the prior). With at least as many records as seen, any batching gives the one-batch fit. Not allowed with `svi`',
  optimizer: 'SVI: `natural` (default; natural-gradient SVI: Σ⁻¹ ← (1 − ρ)Σ⁻¹ + ρ(P₀ − 2Ĝ), μ ← μ + ρΣĝ with the N/B-scaled minibatch gradients, step ρ_t = (1 + t/τ)^−κ) or `adam` (Adam on (μ, L with log-diagonal) at `learningRate`, constant: the `svi` of earlier releases, which does not converge — see docs/guide.md)',
  learningRate: 'SVI with `optimizer` `adam`: Adam learning rate (default 0.05); unused by `natural`',
  stepsPerBatch: 'SVI: steps per update on the same minibatch (default 1)',
  dataSize: 'SVI: effective data size N, the number of distinct records (default 0: the records seen so far, right for a single pass over a stream; set it when the data are passed over more than once, or N grows with every pass and q becomes overconfident)',
  tau: 'SVI `natural`: delay τ > 0 of the step ρ_t = (1 + t/τ)^−κ, t the step count over the model\'s life (default 1)',
  refit: '`sda` after the first update: `natural` (default for full covariance: each refit runs natural-gradient passes Σ⁻¹ ← P − 2G, μ ← μ + Σg to the fixed point of F, warm-started at the current q, and records leaving the replay are folded into q_a as Gaussian sites frozen at the current q, O(d²) each) or `lbfgs` (L-BFGS on every update and folds by a streaming fit: the behaviour of earlier releases; the only choice for a diagonal q)',
  refitFraction: '`sda` with `refit` `natural`: the replayed records are refitted when the records seen cross the next point of the grid (1 + refitFraction)^k (so about every refitFraction·N records), in between each batch is fitted alone with the current q as the prior (default 0.5; 0: refit on every update)',
  kappa: 'SVI `natural`: forgetting rate κ ∈ (0.5, 1] of ρ_t (default 1: ρ_t = 1/(t + 1), Σ⁻¹ is the running mean of the steps\' targets)',
};
