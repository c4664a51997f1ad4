export * from './core/index.js';
export * as linalg from './linalg/index.js';
export * as special from './special/index.js';
export { Rng } from './rng/rng.js';
export { sampleMultivariateNormal } from './rng/sample-multivariate-normal.js';
export * as optim from './optim/index.js';
export { families, getFamily } from './registry.js';
export * from './models/vb-linear/index.js';
export * from './models/vb-logit/index.js';
