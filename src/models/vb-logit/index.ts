import type { FamilyDescriptor } from '../../core/family-descriptor.js';
import { VbLogitModel, type VbLogitOptions } from './model.js';

export { VbLogitModel, type VbLogitOptions } from './model.js';
export { absorbVbLogitBatch } from './fit.js';
export { predictVbLogitRow, type XiIterationSettings } from './predict.js';
export { predictVbLogitJoint } from './predict-joint.js';
export { JaakkolaJordanRow } from '../../likelihoods/jaakkola-jordan-row.js';
export { jaakkolaJordanRowFit } from '../../likelihoods/jaakkola-jordan-row-fit.js';
export type { GaussianPosterior } from '../../gaussian/gaussian-posterior.js';

/** `vb-logit`: Drugowitsch §3, Jaakkola–Jordan VB with a Gamma hyperprior on α. */
export const vbLogitFamily: FamilyDescriptor<VbLogitOptions> = {
  id: 'vb-logit',
  summary: 'VB logistic regression, Jaakkola–Jordan bound, Gamma hyperprior on the weight precision (Drugowitsch §3); batch fit per update, streaming VB across updates',
  task: 'classification',
  create: (dim, options) => VbLogitModel.create('vb-logit', dim, false, options),
  restore: (snapshot) => VbLogitModel.restore('vb-logit', snapshot),
};

/** `vb-logit-ard`: Drugowitsch §3.4, one precision per weight. */
export const vbLogitArdFamily: FamilyDescriptor<VbLogitOptions> = {
  id: 'vb-logit-ard',
  summary: 'VB logistic regression with automatic relevance determination (Drugowitsch §3.4)',
  task: 'classification',
  create: (dim, options) => VbLogitModel.create('vb-logit-ard', dim, true, options),
  restore: (snapshot) => VbLogitModel.restore('vb-logit-ard', snapshot),
};

export { VbLogitOnlineModel, vbLogitOnlineFamily } from './online-family.js';
export type { VbLogitOnlineOptions } from './online-options.js';
export { onlineVbLogitRecord } from './online-step.js';
