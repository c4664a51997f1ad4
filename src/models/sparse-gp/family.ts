import { defineFamily } from '../../core/define-family.js';
import type { Family } from '../../core/family.js';
import type { FamilyDefinition } from '../../core/family-definition.js';
import { ModelShell } from '../../core/model-shell.js';
import type { Predictive } from '../../core/predictive.js';
import type { Task } from '../../core/task.js';
import { validateBatch } from '../../core/validate-batch.js';
import type { Rng } from '../../rng/rng.js';
import { sparseGpCodec } from './codec.js';
import { fitSparseGp, type SparseGpFitSettings } from './fit.js';
import { sparseGpInducingPosterior } from './inducing-posterior.js';
import { sparseGpLatent } from './latent.js';
import { sparseGpLatentPredictive } from './latent-predictive.js';
import { sparseGpOptionsOf } from './options-of.js';
import { SPARSE_GP_OPTION_DOCS, type ResolvedSparseGpOptions, type SparseGpLikelihoodName, type SparseGpOptions } from './options.js';
import { sampleSparseGpInducing } from './sample-inducing.js';
import { sampleSparseGpLatent } from './sample-latent.js';
import { createSparseGpState, type SparseGpState } from './state.js';
import { sparseGpStep } from './step.js';
import { sparseGpParameters, sparseGpWorkspace, type SparseGpWorkspace } from './workspace.js';

/** A sparse GP: the shell plus batch training, latent marginals and draws, q(u) and the hyperparameters. */
export class SparseGpModel extends ModelShell<SparseGpOptions, SparseGpState, SparseGpWorkspace, Predictive> {
  get options(): ResolvedSparseGpOptions {
    return this.state.options;
  }

  /** Adam steps taken so far. */
  get steps(): number {
    return this.state.steps;
  }

  /** The objective of the last step, in the sum form Σ_i loss_i (scaled to N) + β·R. */
  get lastObjective(): number {
    return this.state.lastObjective;
  }

  /**
   * Batch training on (x, y) (n rows, checked like a batch) until the paper's stopping rule holds
   * ({@link fitSparseGp}); the records count once. An error leaves the model untouched.
   */
  fit(x: Float64Array, y: Float64Array, n: number, settings: SparseGpFitSettings = {}): { iterations: number; converged: boolean } {
    validateBatch({ x, y, n, d: this.dim }, this.dim, this.rules);
    return this.commit((state, workspace) => fitSparseGp(state, workspace, x, y, n, settings));
  }

  /**
   * The objective in the paper's sum form, Σ_i loss_i + β·R(q) (not divided by n), on (x, y) at the
   * current parameters, without changing anything but the stochastic estimators' draws.
   */
  objectiveValue(x: Float64Array, y: Float64Array, n: number): number {
    const { objective, evaluator } = this.workspace;
    objective.prepare?.(n, this.state.rng);
    return evaluator.evaluate(sparseGpParameters(this.state, this.workspace), x, y, n, objective, 1);
  }

  /** Latent q(f) = N(μ_i, v_i) at the n rows of x (row-major n×d). */
  predictLatent(x: Float64Array, n: number): { mean: Float64Array; variance: Float64Array } {
    return sparseGpLatent(this.state, this.workspace, x, n);
  }

  /** The predictive distribution of y given the latent marginal N(mu, v). */
  predictiveFromLatent(mu: number, v: number): Predictive {
    return sparseGpLatentPredictive(this.state, this.workspace, mu, v);
  }

  /** q(u) unwhitened: mean (M, including the constant mean), covariance (M×M) and its lower factor. */
  inducingPosterior(): { mean: Float64Array; cov: Float64Array; factor: Float64Array } {
    return sparseGpInducingPosterior(this.state, this.workspace);
  }

  /** Current hyperparameters and Z (copies). */
  hyperparameters(): { variance: number; lengthscale: number[]; noiseVariance: number; meanConstant: number; Z: Float64Array } {
    const { theta, layout, dim, options: o } = this.state;
    const { kernel } = sparseGpParameters(this.state, this.workspace);
    return {
      variance: kernel.variance, lengthscale: Array.from({ length: o.ard ? dim : 1 }, (_, j) => kernel.lengthscale(j)),
      noiseVariance: Math.exp(theta[layout.noise]), meanConstant: theta[layout.mean], Z: theta.slice(layout.z, layout.z + o.M * dim),
    };
  }

  /** A joint draw of f at the n rows of x ({@link sampleSparseGpLatent}). */
  sampleLatent(rng: Rng, x: Float64Array, n: number): Float64Array {
    return sampleSparseGpLatent(this.state, this.workspace, rng, x, n);
  }
}

function definition(id: string, task: Task, likelihoods: readonly SparseGpLikelihoodName[], summary: string): FamilyDefinition<SparseGpOptions, SparseGpState, SparseGpWorkspace, Predictive> {
  return {
    id, summary, task, batching: 'dependent', weights: false,
    semantics: 'each update takes stepsPerUpdate Adam steps on its minibatch, the data term scaled by N/B, so where the stream is cut changes the fit; not additive: no merge or forget',
    options: SPARSE_GP_OPTION_DOCS,
    create: (dim, options) => createSparseGpState(dim, options, likelihoods),
    optionsOf: (state) => sparseGpOptionsOf(state.options),
    workspace: sparseGpWorkspace,
    recordsSeen: (state) => state.records,
    step: sparseGpStep,
    predict(state, workspace, x, offset) {
      const latent = sparseGpLatent(state, workspace, x.subarray(offset, offset + state.dim), 1);
      return sparseGpLatentPredictive(state, workspace, latent.mean[0], latent.variance[0]);
    },
    sample: sampleSparseGpInducing,
    posteriorMean: (state, workspace) => sparseGpInducingPosterior(state, workspace).mean,
    posteriorSummary(state, workspace) {
      const M = state.options.M;
      const { mean, cov, factor } = sparseGpInducingPosterior(state, workspace);
      let norm = 0;
      let traceCovariance = 0;
      let logDetCovariance = 0;
      for (let a = 0; a < M; a++) {
        norm += mean[a] * mean[a];
        traceCovariance += cov[a * M + a];
        logDetCovariance += 2 * Math.log(factor[a * M + a]);
      }
      return { meanNorm: Math.sqrt(norm), traceCovariance, logDetCovariance, effectiveDataSize: state.options.dataSize ?? state.records };
    },
    codec: sparseGpCodec(id, likelihoods),
  };
}

/** `sparse-gp`: sparse variational GP regression (gaussian likelihood). */
export const sparseGpFamily: Family<SparseGpOptions, SparseGpModel> = defineFamily(definition('sparse-gp', 'regression', ['gaussian'],
  'Sparse variational GP regression (SVGP / β-ELBO / log-loss and square-loss DLM; Hensman et al. 2015, Wei, Sheth & Khardon 2021), minibatch Adam over a stream'), SparseGpModel);

/** `sparse-gp-classifier`: sparse GP classification, probit (default) or logit (ELBO by the VI-PER bound). */
export const sparseGpClassifierFamily: Family<SparseGpOptions, SparseGpModel> = defineFamily(definition('sparse-gp-classifier', 'classification', ['bernoulli-probit', 'bernoulli-logit'],
  'Sparse variational GP classification, bernoulli-probit or bernoulli-logit (VI-PER bound, Komodromos et al. §2.2.2); ELBO / β-ELBO / log-loss DLM'), SparseGpModel);

/** `sparse-gp-count`: sparse GP Poisson regression with a log link. */
export const sparseGpCountFamily: Family<SparseGpOptions, SparseGpModel> = defineFamily(definition('sparse-gp-count', 'count', ['poisson'],
  'Sparse variational GP count regression (poisson, log link); ELBO / β-ELBO / log-loss DLM by Gauss–Hermite, bMC or uPS'), SparseGpModel);
