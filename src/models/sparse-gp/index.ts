import type { FamilyDescriptor } from '../../core/family-descriptor.js';
import { SparseGpModel } from './model.js';
import type { SparseGpOptions } from './options.js';

export { SparseGpModel } from './model.js';
export type { SparseGpOptions, ResolvedSparseGpOptions, SparseGpLikelihoodName, SparseGpFixedGroup } from './options.js';
export { SparseGpEvaluator, type SparseGpParameters, type SparseGpGradient } from './sparse-gp-evaluator.js';
export { ElboObjective } from './elbo-objective.js';
export { LogLossDlmObjective } from './log-loss-dlm-objective.js';
export { SquareLossDlmObjective } from './square-loss-dlm-objective.js';
export { BmcDlmObjective } from './bmc-dlm-objective.js';
export { UpsDlmObjective } from './ups-dlm-objective.js';
export { UpsSampler } from './ups-sampler.js';
export { squareLossMinimiser } from './square-loss-minimiser.js';
export { StoppingRule } from './stopping-rule.js';
export { SPARSE_GP_SNAPSHOT_VERSION } from './codec.js';

/** `sparse-gp`: sparse variational GP regression (gaussian likelihood). */
export const sparseGpFamily: FamilyDescriptor<SparseGpOptions> = {
  id: 'sparse-gp',
  summary: 'Sparse variational GP regression (SVGP / β-ELBO / log-loss and square-loss DLM; Hensman et al. 2015, Wei, Sheth & Khardon 2021), minibatch Adam over a stream',
  task: 'regression',
  create: (dim, options = {}) => SparseGpModel.create('sparse-gp', dim, options, ['gaussian']),
  restore: (snapshot) => SparseGpModel.restore('sparse-gp', snapshot),
};

/** `sparse-gp-classifier`: sparse GP classification, probit (default) or logit (ELBO by the VI-PER bound). */
export const sparseGpClassifierFamily: FamilyDescriptor<SparseGpOptions> = {
  id: 'sparse-gp-classifier',
  summary: 'Sparse variational GP classification, bernoulli-probit or bernoulli-logit (VI-PER bound, Komodromos et al. §2.2.2); ELBO / β-ELBO / log-loss DLM',
  task: 'classification',
  create: (dim, options = {}) => SparseGpModel.create('sparse-gp-classifier', dim, options, ['bernoulli-probit', 'bernoulli-logit']),
  restore: (snapshot) => SparseGpModel.restore('sparse-gp-classifier', snapshot),
};

/** `sparse-gp-count`: sparse GP Poisson regression with a log link. */
export const sparseGpCountFamily: FamilyDescriptor<SparseGpOptions> = {
  id: 'sparse-gp-count',
  summary: 'Sparse variational GP count regression (poisson, log link); ELBO / β-ELBO / log-loss DLM by Gauss–Hermite, bMC or uPS',
  task: 'count',
  create: (dim, options = {}) => SparseGpModel.create('sparse-gp-count', dim, options, ['poisson']),
  restore: (snapshot) => SparseGpModel.restore('sparse-gp-count', snapshot),
};
export { betaGrid, selectBeta } from './beta-selection.js';
