export { Rng } from './rng.js';
export { sampleMultivariateNormal } from './sample-multivariate-normal.js';
