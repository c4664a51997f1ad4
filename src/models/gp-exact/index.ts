export { GpExactModel, gpExactFamily } from './family.js';
export type { GpExactOptions } from './options.js';
export { logMarginalLikelihood, type ExactGpFactor } from './log-marginal-likelihood.js';
export { titsiasBound, type TitsiasResult } from './titsias-bound.js';
