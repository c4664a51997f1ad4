import type { FamilyDescriptor } from '../../core/family-descriptor.js';
import { DirectModel, type DirectOptions } from './model.js';

export { DirectModel, type DirectOptions, type RffOptions } from './model.js';
export type { DirectPosterior } from './posterior.js';
export { DirectElbo } from './objective.js';
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
