import type { FamilyDescriptor } from '../../core/family-descriptor.js';
import { GpExactModel, type GpExactOptions } from './model.js';

export { GpExactModel, type GpExactOptions } from './model.js';
export { logMarginalLikelihood, type ExactGpFactor } from './log-marginal-likelihood.js';
export { titsiasBound, type TitsiasResult } from './titsias-bound.js';
export { GP_EXACT_SNAPSHOT_VERSION } from './codec.js';

/** `gp-exact`: exact GP regression with marginal-likelihood hyperparameters, the small-n reference. */
export const gpExactFamily: FamilyDescriptor<GpExactOptions> = {
  id: 'gp-exact',
  summary: 'Exact GP regression (Cholesky), hyperparameters by maximum marginal likelihood (L-BFGS); keeps every record, O(n³) per update',
  task: 'regression',
  create: (dim, options) => GpExactModel.create(dim, options),
  restore: (snapshot) => GpExactModel.restore(snapshot),
};
