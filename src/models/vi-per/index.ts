import type { FamilyDescriptor } from '../../core/family-descriptor.js';
import { ViPerModel } from './model.js';
import type { ViPerOptions } from './options.js';

export { ViPerModel } from './model.js';
export type { ViPerOptions } from './options.js';
export { GaussianLogitObjective, packedLength } from './objective.js';
export type { CovarianceForm, StreamingMode, ViPerSettings } from './state.js';

/** `vi-per`: VI-PER, full covariance Σ = LLᵀ (Komodromos et al. 2024, Q'). */
export const viPerFamily: FamilyDescriptor<ViPerOptions> = {
  id: 'vi-per',
  summary: 'Logistic VB with the VI-PER softplus bound (Komodromos et al. 2024), full-covariance Gaussian q, L-BFGS; streaming VB or SVI across updates',
  task: 'classification',
  create: (dim, options) => ViPerModel.create('vi-per', dim, 'viper', 'full', options),
  restore: (snapshot) => ViPerModel.restore('vi-per', snapshot),
};

/** `vi-per-mf`: VI-PER, mean-field (diagonal) q (the paper's Q). */
export const viPerMeanFieldFamily: FamilyDescriptor<ViPerOptions> = {
  id: 'vi-per-mf',
  summary: 'Logistic VB with the VI-PER softplus bound, mean-field (diagonal) Gaussian q',
  task: 'classification',
  create: (dim, options) => ViPerModel.create('vi-per-mf', dim, 'viper', 'diagonal', options),
  restore: (snapshot) => ViPerModel.restore('vi-per-mf', snapshot),
};

/** `vi-gh`: the exact ELBO by Gauss–Hermite quadrature, same optimiser (exact-ELBO Gaussian VB). */
export const viGaussHermiteFamily: FamilyDescriptor<ViPerOptions> = {
  id: 'vi-gh',
  summary: 'Logistic VB on the exact ELBO by Gauss–Hermite quadrature, full-covariance Gaussian q, L-BFGS',
  task: 'classification',
  create: (dim, options) => ViPerModel.create('vi-gh', dim, 'gauss-hermite', 'full', options),
  restore: (snapshot) => ViPerModel.restore('vi-gh', snapshot),
};

/** `vi-mc`: the ELBO by reparameterised Monte Carlo (VI-MC, 1000 seeded draws), same optimiser. */
export const viMonteCarloFamily: FamilyDescriptor<ViPerOptions> = {
  id: 'vi-mc',
  summary: 'Logistic VB on a seeded reparameterised Monte Carlo ELBO (VI-MC), full-covariance Gaussian q',
  task: 'classification',
  create: (dim, options) => ViPerModel.create('vi-mc', dim, 'monte-carlo', 'full', options),
  restore: (snapshot) => ViPerModel.restore('vi-mc', snapshot),
};
