import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';

/** Likelihoods the sparse GP offers. */
export type SparseGpLikelihoodName = 'gaussian' | 'bernoulli-probit' | 'bernoulli-logit' | 'poisson';
/** Parameter groups that can be held fixed (the paper's "fixed-DLM" fixes kernel, noise and Z). */
export type SparseGpFixedGroup = 'kernel' | 'noise' | 'Z' | 'mean';

/** Options of the sparse-GP families (every field optional; defaults in {@link resolveSparseGpOptions}). */
export interface SparseGpOptions {
  readonly likelihood?: SparseGpLikelihoodName;
  /** 'elbo' (β = 1: SVGP; else β-ELBO), 'dlm' (log loss), 'sq-dlm' (square loss, gaussian only). */
  readonly objective?: 'elbo' | 'dlm' | 'sq-dlm';
  /** DLM data term for non-closed forms: 'quadrature' (Gauss–Hermite / closed form), 'bmc', 'ups'. */
  readonly estimator?: 'quadrature' | 'bmc' | 'ups';
  /** Monte Carlo samples per point for bMC / uPS. */
  readonly samples?: number;
  /** Number of inducing inputs. */
  readonly M?: number;
  readonly beta?: number;
  readonly kernel?: { readonly type?: 'rbf' | 'rbf-ard'; readonly variance?: number; readonly lengthscale?: number | readonly number[] };
  readonly noiseVariance?: number;
  readonly mean?: 'zero' | 'constant';
  /** Inducing inputs M×d; by default chosen from the first batch by k-means++ seeding. */
  readonly Z?: readonly (readonly number[])[];
  /** How Z is chosen from the first batch when not given: k-means++ seeding (default) or its first M rows (GPyTorch's demo). */
  readonly zInit?: 'kmeans++' | 'first';
  readonly fixed?: readonly SparseGpFixedGroup[];
  /** q over whitened v (u = Lk v; default) or over u. */
  readonly whitened?: boolean;
  readonly jitter?: number;
  readonly learningRate?: number;
  /** Adam steps per `update`. */
  readonly stepsPerUpdate?: number;
  /** Effective data size N for the n/B scaling; default: records seen so far. */
  readonly dataSize?: number;
  readonly seed?: number;
}

/** {@link SparseGpOptions} with every default filled in and checked. */
export interface ResolvedSparseGpOptions {
  readonly likelihood: SparseGpLikelihoodName;
  readonly objective: 'elbo' | 'dlm' | 'sq-dlm';
  readonly estimator: 'quadrature' | 'bmc' | 'ups';
  readonly samples: number;
  readonly M: number;
  readonly beta: number;
  readonly ard: boolean;
  readonly variance: number;
  readonly lengthscale: number[];
  readonly noiseVariance: number;
  readonly mean: 'zero' | 'constant';
  readonly Z: number[][] | null;
  readonly zInit: 'kmeans++' | 'first';
  readonly fixed: SparseGpFixedGroup[];
  readonly whitened: boolean;
  readonly jitter: number;
  readonly learningRate: number;
  readonly stepsPerUpdate: number;
  readonly dataSize: number | null;
  readonly seed: number;
}

const KEYS = ['likelihood', 'objective', 'estimator', 'samples', 'M', 'beta', 'kernel', 'noiseVariance', 'mean', 'Z', 'zInit', 'fixed', 'whitened', 'jitter', 'learningRate', 'stepsPerUpdate', 'dataSize', 'seed'];

/** Checks the options (unknown keys, ranges, shapes), throwing {@link ConfigError} naming the field and value. */
export function resolveSparseGpOptions(dim: number, options: SparseGpOptions, likelihoods: readonly SparseGpLikelihoodName[]): ResolvedSparseGpOptions {
  for (const key of Object.keys(options)) if (!KEYS.includes(key)) throw new ConfigError(`unknown sparse-GP option; accepted: ${KEYS.join(', ')}`, { field: key });
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
