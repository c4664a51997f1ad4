export { AdfModel, adfLogitFamily, adfPoissonFamily, adfProbitFamily } from './family.js';
export type { AdfOptions } from './options.js';
export type { AdfLink, AdfPosterior, AdfState } from './state.js';
export { adfRecord } from './step.js';
export { probitTiltedMoments } from './probit-tilted-moments.js';
export { quadratureTiltedMoments } from './quadrature-tilted-moments.js';
export { quadratureScratch, type QuadratureScratch } from './quadrature-scratch.js';
export type { TiltedMoments } from './tilted-moments.js';
