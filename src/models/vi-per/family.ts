import { defineFamily } from '../../core/define-family.js';
import type { Family } from '../../core/family.js';
import type { FamilyDefinition } from '../../core/family-definition.js';
import { ModelShell } from '../../core/model-shell.js';
import type { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import type { BernoulliLogitMethod } from '../../likelihoods/bernoulli-logit.js';
import { sampleMultivariateNormal } from '../../rng/sample-multivariate-normal.js';
import { viPerCodec } from './codec.js';
import { covarianceOfFactor } from './covariance-of-factor.js';
import { VI_PER_OPTION_DOCS, type CovarianceForm, type ViPerOptions } from './options.js';
import { predictGaussianLogit } from './predict.js';
import type { ViPerSettings } from './settings.js';
import { createViPerState, type ViPerState } from './state.js';
import { viPerStep } from './step.js';
import { viPerWorkspace, type ViPerWorkspace } from './workspace.js';

/** A vi-per model: the shell plus Σ, its Cholesky factor and the last fit's diagnostics. */
export class ViPerModel extends ModelShell<ViPerOptions, ViPerState, ViPerWorkspace, BernoulliPredictive> {
  /** Posterior covariance Σ = LLᵀ (a new d×d row-major array). */
  covariance(): Float64Array {
    return covarianceOfFactor(this.state.factor, this.state.dim);
  }

  /** The lower Cholesky factor L of Σ (a copy). */
  choleskyFactor(): Float64Array {
    return this.state.factor.slice();
  }

  /** F at the end of the last update, its L-BFGS iterations (SVI: steps per update), and the settings. */
  get diagnostics(): { objective: number; iterations: number; settings: ViPerSettings } {
    return { objective: this.state.objective, iterations: this.state.iterations, settings: this.state.settings };
  }
}

/**
 * Bayesian logistic regression with a Gaussian q(β) = N(μ, Σ), Σ = LLᵀ full (the paper's Q') or
 * diagonal (Q), fitted by maximising F(μ, Σ) = Σᵢ E_q[log p(yᵢ | xᵢᵀβ)] − KL(q ‖ p) (Komodromos et al.
 * 2024, eq. 11) with analytic gradients, the expectation taken by the family's evaluator. Labels 0/1
 * or ±1; record weights honoured. `predict` gives p(y = 1 | x) = E_q[σ(xᵀβ)] by 100-node
 * Gauss–Hermite quadrature.
 */
function definition(id: 'vi-per' | 'vi-per-mf' | 'vi-gh' | 'vi-mc', method: BernoulliLogitMethod, covariance: CovarianceForm, summary: string): FamilyDefinition<ViPerOptions, ViPerState, ViPerWorkspace, BernoulliPredictive> {
  return {
    id, summary, task: 'classification', batching: 'dependent', weights: true,
    semantics: '`sda` (default): streaming VB with a bounded replay — each update refits F by L-BFGS on the last `replay` records (default 2000) with q_a, the Gaussian of all earlier records, as the prior; records leaving the buffer are folded into q_a by a streaming step (with full covariance, also under mean-field; one batch holding all the data is the batch fit, and so is any batching while no record has left the buffer; `replay` 0: each batch fitted once with the current q as the prior; with full covariance, `refit` `natural` (default): after the first update, natural-gradient refits warm-started at q, the window refitted while no record has left it and then about every `refitFraction`·N records, each other batch fitted alone with q as the prior, records leaving the buffer folded into q_a as sites frozen at the current q); `svi`: `stepsPerBatch` natural-gradient (default; Robbins–Monro ρ_t = (1 + t/τ)^−κ) or Adam steps on the N/B-scaled minibatch objective. Once records leave the replay buffer, where the batches are cut changes q; no merge or forget',
    options: VI_PER_OPTION_DOCS,
    create: (dim, options) => createViPerState(dim, options, method, covariance),
    optionsOf: (state) => ({ ...state.settings, prior: { mean: Array.from(state.priorMean), covariance: covarianceOfFactor(state.priorFactor, state.dim) } }),
    workspace: viPerWorkspace,
    recordsSeen: (state) => state.records,
    step: (state, batch, workspace) => viPerStep(id, state, batch, workspace),
    predict: (state, workspace, x, offset) => predictGaussianLogit(state.mu, state.factor, state.dim, x, offset, workspace.quadrature),
    sample: (state, workspace, rng, out) => sampleMultivariateNormal(rng, state.mu, state.factor, state.dim, out, workspace.z),
    posteriorMean: (state) => state.mu.slice(),
    posteriorSummary(state) {
      const { dim: d, mu, factor } = state;
      let norm = 0;
      let logDet = 0;
      let trace = 0;
      for (let i = 0; i < d; i++) {
        norm += mu[i] * mu[i];
        logDet += 2 * Math.log(factor[i * d + i]);
        for (let j = 0; j <= i; j++) trace += factor[i * d + j] ** 2;
      }
      return { meanNorm: Math.sqrt(norm), logDetCovariance: logDet, traceCovariance: trace, effectiveDataSize: state.records };
    },
    codec: viPerCodec(id),
  };
}

/** `vi-per`: VI-PER (the softplus bound η_l, Thm 2.1), full covariance Σ = LLᵀ (the paper's Q'). */
export const viPerFamily: Family<ViPerOptions, ViPerModel> = defineFamily(definition('vi-per', 'viper', 'full',
  'Logistic VB with the VI-PER softplus bound (Komodromos et al. 2024), full-covariance Gaussian q, L-BFGS; streaming VB or SVI across updates'), ViPerModel);

/** `vi-per-mf`: VI-PER, mean-field (diagonal) q (the paper's Q). */
export const viPerMeanFieldFamily: Family<ViPerOptions, ViPerModel> = defineFamily(definition('vi-per-mf', 'viper', 'diagonal',
  'Logistic VB with the VI-PER softplus bound, mean-field (diagonal) Gaussian q'), ViPerModel);

/** `vi-gh`: the exact ELBO by Gauss–Hermite quadrature, same optimiser (exact-ELBO Gaussian VB). */
export const viGaussHermiteFamily: Family<ViPerOptions, ViPerModel> = defineFamily(definition('vi-gh', 'gauss-hermite', 'full',
  'Logistic VB on the exact ELBO by Gauss–Hermite quadrature, full-covariance Gaussian q, L-BFGS'), ViPerModel);

/** `vi-mc`: the ELBO by reparameterised Monte Carlo (VI-MC, 1000 seeded draws), same optimiser. */
export const viMonteCarloFamily: Family<ViPerOptions, ViPerModel> = defineFamily(definition('vi-mc', 'monte-carlo', 'full',
  'Logistic VB on a seeded reparameterised Monte Carlo ELBO (VI-MC), full-covariance Gaussian q'), ViPerModel);
