import type { FamilyDescriptor } from '../../core/family-descriptor.js';
import { PgLogitModel, type PgLogitOptions } from './model.js';

export { PgLogitModel, type PgLogitOptions } from './model.js';
export { pgLogitCavi, type CaviResult, type CaviStop } from './cavi.js';
export { pgLogitElbo } from './objective.js';
export { expectedSigmoid } from './expected-sigmoid.js';
export { MinibatchSampler, type MinibatchSampling } from './minibatch-sampler.js';
export { buildPgLogitPrior, type PgLogitPriorOptions } from './build-prior.js';
export type { PgLogitPrior } from './prior.js';
export type { PgLogitUpdateMode } from './state.js';
export type { PgLogitPredictor } from './predict.js';

/** `pg-logit`: Durante & Rigon, Pólya-gamma mean-field VB for logistic regression (CAVI / SVI). */
export const pgLogitFamily: FamilyDescriptor<PgLogitOptions> = {
  id: 'pg-logit',
  summary: 'Pólya-gamma mean-field VB for logistic regression (Durante & Rigon 2019): CAVI per batch (streaming VB) or SVI steps with effective data size N',
  task: 'classification',
  create: (dim, options) => PgLogitModel.create(dim, options),
  restore: (snapshot) => PgLogitModel.restore(snapshot),
};
