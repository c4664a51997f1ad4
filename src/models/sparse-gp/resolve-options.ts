import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import type { ResolvedSparseGpOptions, SparseGpLikelihoodName, SparseGpOptions } from './options.js';

/** Fills in the defaults and checks the option values (ranges, shapes; the keys are checked already), throwing {@link ConfigError} naming the field and value. */
export function resolveSparseGpOptions(dim: number, options: SparseGpOptions, likelihoods: readonly SparseGpLikelihoodName[]): ResolvedSparseGpOptions {
  const likelihood = optionChecks.oneOf('likelihood', options.likelihood, likelihoods[0], likelihoods);
  const objective = optionChecks.oneOf('objective', options.objective, 'elbo', ['elbo', 'dlm', 'sq-dlm'] as const);
  if (objective === 'sq-dlm' && likelihood !== 'gaussian') throw new ConfigError('the square-loss DLM is for regression: use likelihood "gaussian"', { field: 'objective', value: objective });
  const estimator = optionChecks.oneOf('estimator', options.estimator, 'quadrature', ['quadrature', 'bmc', 'ups'] as const);
  if (estimator !== 'quadrature' && objective !== 'dlm') {
    throw new ConfigError('bmc and ups apply to the log-loss DLM', { field: 'estimator', value: estimator });
  }
  const kernel = options.kernel ?? {};
  if (typeof kernel !== 'object' || kernel === null) throw new ConfigError('must be an object {type, variance, lengthscale}', { field: 'kernel', value: kernel });
  const type = optionChecks.oneOf('kernel.type', kernel.type, 'rbf', ['rbf', 'rbf-ard'] as const);
  const ard = type === 'rbf-ard';
  const rawLength = kernel.lengthscale ?? 1;
  const lengthscale = typeof rawLength === 'number' ? Array.from({ length: ard ? dim : 1 }, () => rawLength) : Array.from(rawLength);
  if (lengthscale.length !== (ard ? dim : 1)) throw new ConfigError(`kernel.lengthscale must have ${ard ? dim : 1} entries`, { field: 'kernel.lengthscale', value: rawLength });
  lengthscale.forEach((l, j) => optionChecks.positive(`kernel.lengthscale[${j}]`, l, 1));
  const M = optionChecks.positiveInteger('M', options.M, 20);
  let Z: number[][] | null = null;
  if (options.Z !== undefined) {
    if (!Array.isArray(options.Z) || options.Z.length !== M) throw new ConfigError(`Z must be ${M} rows (M) of ${dim} numbers`, { field: 'Z', value: options.Z });
    Z = options.Z.map((row, r) => {
      if (!Array.isArray(row) || row.length !== dim) throw new ConfigError(`Z row ${r + 1} must have ${dim} numbers`, { field: 'Z', row: r + 1, value: row });
      return row.map((v, j) => optionChecks.finite(`Z[${r}][${j}]`, v, 0));
    });
  }
  const fixed = options.fixed ?? [];
  if (!Array.isArray(fixed)) throw new ConfigError('must be a list of kernel, noise, Z, mean', { field: 'fixed', value: fixed });
  for (const g of fixed) optionChecks.oneOf('fixed', g, 'kernel', ['kernel', 'noise', 'Z', 'mean'] as const);
  return {
    likelihood, objective, estimator,
    samples: optionChecks.positiveInteger('samples', options.samples, 10),
    M,
    beta: optionChecks.positive('beta', options.beta, 1),
    ard,
    variance: optionChecks.positive('kernel.variance', kernel.variance, 1),
    lengthscale,
    noiseVariance: optionChecks.positive('noiseVariance', options.noiseVariance, 1),
    mean: optionChecks.oneOf('mean', options.mean, 'zero', ['zero', 'constant'] as const),
    Z,
    zInit: optionChecks.oneOf('zInit', options.zInit, 'kmeans++', ['kmeans++', 'first'] as const),
    fixed: [...fixed],
    whitened: optionChecks.boolean('whitened', options.whitened, true),
    jitter: optionChecks.nonNegative('jitter', options.jitter, 1e-6),
    learningRate: optionChecks.positive('learningRate', options.learningRate, 0.01),
    stepsPerUpdate: optionChecks.positiveInteger('stepsPerUpdate', options.stepsPerUpdate, 1),
    dataSize: options.dataSize === undefined ? null : optionChecks.positive('dataSize', options.dataSize, 1),
    seed: optionChecks.finite('seed', options.seed, 1),
  };
}
