import type { FamilyDescriptor } from '../../core/family-descriptor.js';
import { DirectLogitModel, type DirectLogitOptions } from './logit-model.js';
import { DirectModel, type DirectOptions } from './model.js';

export { DirectModel, type DirectOptions } from './model.js';
export type { RffOptions } from './feature-options.js';
export { DirectLogitModel, type DirectLogitOptions } from './logit-model.js';
export { DirectLogisticBound } from './logistic-bound.js';
export type { DirectPosterior } from './posterior.js';
export { DirectElbo } from './objective.js';
export { DirectMixtureElbo } from './mixture-objective.js';
export { QuantizedWeights } from './quantized-weights.js';
export type { DirectPredictiveMoments } from './predict.js';

/** `direct`: Evans & Nair, DIRECT generalized linear regression (Theorem 1). */
export const directFamily: FamilyDescriptor<DirectOptions> = {
  id: 'direct',
  summary: 'DIRECT regression: discrete priors, mean-field categorical q, exact ELBO from streaming, mergeable statistics (Evans & Nair, Theorem 1)',
  task: 'regression',
  create: (dim, options) => DirectModel.create(dim, options),
  restore: (snapshot) => DirectModel.restore(snapshot),
};

/** `direct-logit`: Evans & Nair, DIRECT logistic regression on the Theorem-2 bound, minibatch Adam. */
export const directLogitFamily: FamilyDescriptor<DirectLogitOptions> = {
  id: 'direct-logit',
  summary: 'DIRECT logistic regression: discrete priors, mean-field categorical q, minibatch stochastic gradients on the Theorem-2 ELBO bound (Evans & Nair)',
  task: 'classification',
  create: (dim, options) => DirectLogitModel.create(dim, options),
  restore: (snapshot) => DirectLogitModel.restore(snapshot),
};
