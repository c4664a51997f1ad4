export { VbLinearModel, vbLinearFamily, vbLinearArdFamily } from './family.js';
export type { VbLinearOptions } from './options.js';
export { fitVbLinear } from './variational-fit.js';
export type { VbLinearPosterior } from './posterior.js';
