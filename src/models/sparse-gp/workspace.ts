import { RbfKernel } from '../../kernels/rbf-kernel.js';
import { BernoulliLogitPointwise } from '../../likelihoods/bernoulli-logit-pointwise.js';
import { BernoulliLogitViper } from '../../likelihoods/bernoulli-logit-viper.js';
import { BernoulliProbitLikelihood } from '../../likelihoods/bernoulli-probit-likelihood.js';
import { GaussianLikelihood } from '../../likelihoods/gaussian-likelihood.js';
import type { PointwiseLikelihood } from '../../likelihoods/pointwise-likelihood.js';
import { PoissonLikelihood } from '../../likelihoods/poisson-likelihood.js';
import { BmcDlmObjective } from './bmc-dlm-objective.js';
import { ElboObjective } from './elbo-objective.js';
import { LogLossDlmObjective } from './log-loss-dlm-objective.js';
import type { ResolvedSparseGpOptions } from './options.js';
import type { SparseGpObjective } from './point-loss.js';
import { SparseGpEvaluator } from './sparse-gp-evaluator.js';
import type { SparseGpGradient, SparseGpParameters } from './sparse-gp-parameters.js';
import { SquareLossDlmObjective } from './square-loss-dlm-objective.js';
import type { SparseGpState } from './state.js';
import { UpsDlmObjective } from './ups-dlm-objective.js';

/**
 * What a sparse GP computes with: the kernel and the likelihood (set from θ before every use), the
 * objective, the evaluator and the gradient buffers, all sized once for M and d (the evaluator's
 * batch buffers grow with the largest batch). Nothing in it outlives a call, so it needs no reset.
 */
export interface SparseGpWorkspace {
  readonly kernel: RbfKernel;
  readonly likelihood: PointwiseLikelihood;
  readonly objective: SparseGpObjective;
  readonly evaluator: SparseGpEvaluator;
  /** The full M×M lower factor of q's covariance, unpacked from θ. */
  readonly fullL: Float64Array;
  readonly gradient: SparseGpGradient;
  /** The gradient in θ's layout, what Adam is fed. */
  readonly gradTheta: Float64Array;
  /** Whether the likelihood's noise variance is learned (the likelihood has one and it is not fixed). */
  readonly learnsNoise: boolean;
  /** Whether any hyperparameter (kernel, noise, constant mean, Z) is learned. */
  readonly hyperFree: boolean;
}

function likelihoodOf(o: ResolvedSparseGpOptions): PointwiseLikelihood {
  if (o.likelihood === 'gaussian') return new GaussianLikelihood(o.noiseVariance);
  if (o.likelihood === 'bernoulli-probit') return new BernoulliProbitLikelihood();
  if (o.likelihood === 'poisson') return new PoissonLikelihood();
  return new BernoulliLogitPointwise();
}

function objectiveOf(o: ResolvedSparseGpOptions, likelihood: PointwiseLikelihood): SparseGpObjective {
  if (o.objective === 'sq-dlm') return new SquareLossDlmObjective();
  // logit: the ELBO through the VI-PER bound (Komodromos et al. §2.2.2); the DLM by Gauss–Hermite, since VI-PER bounds E log σ, not log E σ.
  if (o.likelihood === 'bernoulli-logit' && o.objective === 'elbo') return new ElboObjective(new BernoulliLogitViper());
  if (o.objective === 'elbo') return new ElboObjective(likelihood);
  if (o.estimator === 'bmc') return new BmcDlmObjective(likelihood, o.samples);
  if (o.estimator === 'ups') return new UpsDlmObjective(likelihood, o.samples);
  return new LogLossDlmObjective(likelihood);
}

/** A workspace for a sparse GP with this state's settings. */
export function sparseGpWorkspace(state: SparseGpState): SparseGpWorkspace {
  const o = state.options;
  const { M } = o;
  const kernel = new RbfKernel(state.dim, o.ard);
  const likelihood = likelihoodOf(o);
  const f = o.fixed;
  const learnsNoise = likelihood.noiseVariance !== undefined && !f.includes('noise');
  return {
    kernel, likelihood, objective: objectiveOf(o, likelihood), evaluator: new SparseGpEvaluator(M, state.dim), fullL: new Float64Array(M * M),
    gradient: { m: new Float64Array(M), L: new Float64Array(M * M), kernel: new Float64Array(kernel.size), Z: new Float64Array(M * state.dim), logNoise: 0, meanConstant: 0 },
    gradTheta: new Float64Array(state.layout.size),
    learnsNoise,
    hyperFree: !f.includes('kernel') || !f.includes('Z') || learnsNoise || (o.mean === 'constant' && !f.includes('mean')),
  };
}

/** The evaluator's view of θ: the workspace's kernel and likelihood set from it, L unpacked, Z and m as views. */
export function sparseGpParameters(state: SparseGpState, workspace: SparseGpWorkspace): SparseGpParameters {
  const { theta, layout, options: o } = state;
  const { kernel, likelihood, fullL } = workspace;
  kernel.params.set(theta.subarray(layout.kernel, layout.kernel + kernel.size));
  if (likelihood.noiseVariance !== undefined) likelihood.noiseVariance = Math.exp(theta[layout.noise]);
  layout.unpackL(theta, fullL);
  return {
    kernel, meanConstant: theta[layout.mean], M: o.M, Z: theta.subarray(layout.z, layout.z + o.M * state.dim),
    m: theta.subarray(0, o.M), L: fullL, whitened: o.whitened, jitter: o.jitter, beta: o.beta,
  };
}
