export { ViPerModel, viGaussHermiteFamily, viMonteCarloFamily, viPerFamily, viPerMeanFieldFamily } from './family.js';
export type { CovarianceForm, StreamingMode, ViPerOptions } from './options.js';
export { GaussianLogitObjective, packedLength } from './objective.js';
export type { ViPerSettings } from './settings.js';
