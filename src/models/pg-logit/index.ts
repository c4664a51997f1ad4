export { PgLogitModel, pgLogitFamily } from './family.js';
export type { PgLogitOptions, PgLogitUpdateMode } from './options.js';
export { pgLogitCavi, type CaviResult, type CaviStop } from './cavi.js';
export { pgLogitElbo } from './objective.js';
export { expectedSigmoid } from './expected-sigmoid.js';
export { MinibatchSampler, type MinibatchSampling } from './minibatch-sampler.js';
export { resolvePgLogitPrior, type ResolvedPgLogitPrior } from './resolve-pg-logit-prior.js';
export type { PgLogitPrior } from './prior.js';
export type { PgLogitPredictor } from './predict.js';
