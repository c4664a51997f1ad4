import type { FamilyDescriptor } from '../../core/family-descriptor.js';
import { VbLinearModel, type VbLinearOptions } from './model.js';

export { VbLinearModel, type VbLinearOptions } from './model.js';
export { fitVbLinear } from './fit.js';
export type { VbLinearPosterior } from './posterior.js';

/** `vb-linear`: Drugowitsch §2, one shrinkage precision α. */
export const vbLinearFamily: FamilyDescriptor<VbLinearOptions> = {
  id: 'vb-linear',
  summary: 'VB linear regression, normal-inverse-gamma posterior, Gamma hyperprior on the weight precision (Drugowitsch §2); exact streaming and merge',
  task: 'regression',
  create: (dim, options) => VbLinearModel.create('vb-linear', dim, false, options),
  restore: (snapshot) => VbLinearModel.restore('vb-linear', snapshot),
};

/** `vb-linear-ard`: Drugowitsch §2.4, one precision per weight (ARD). */
export const vbLinearArdFamily: FamilyDescriptor<VbLinearOptions> = {
  id: 'vb-linear-ard',
  summary: 'VB linear regression with automatic relevance determination (Drugowitsch §2.4); exact streaming and merge',
  task: 'regression',
  create: (dim, options) => VbLinearModel.create('vb-linear-ard', dim, true, options),
  restore: (snapshot) => VbLinearModel.restore('vb-linear-ard', snapshot),
};
