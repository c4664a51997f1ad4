export type { ObjectiveFunction } from './objective-function.js';
export { minimizeLbfgs, type LbfgsOptions, type LbfgsResult } from './lbfgs.js';
export { wolfeLineSearch, type LineSearchResult } from './wolfe-line-search.js';
export { Adam, type AdamOptions } from './adam.js';
export { robbinsMonroStep } from './robbins-monro-step.js';
