import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import type { GpExactOptions } from './options.js';

/** The hyperparameter values a model starts from (as given, so that `emptyLike` recreates them bit for bit). */
export interface GpExactInitial {
  readonly variance: number;
  readonly lengthscale: readonly number[];
  readonly noiseVariance: number;
}

/** State of `gp-exact`: every record (x row-major n×d, y), the hyperparameters [log s², log ℓ…, log σ²], where they started, and the settings. */
export interface GpExactState {
  readonly dim: number;
  readonly ard: boolean;
  readonly fixedKernel: boolean;
  readonly fixedNoise: boolean;
  readonly maxIterations: number;
  readonly initial: GpExactInitial;
  params: Float64Array;
  x: Float64Array;
  y: Float64Array;
  records: number;
  /** log p(y | X, θ) at the current hyperparameters (NaN before the first record). */
  logMarginal: number;
}

/** [log s², log ℓ…, log σ²] of the starting values. */
function initialParams(initial: GpExactInitial): Float64Array {
  return Float64Array.from([initial.variance, ...initial.lengthscale, initial.noiseVariance], Math.log);
}

/** A model with no records, at the given hyperparameters; a bad option value throws `ConfigError`. */
export function createGpExactState(dim: number, options: GpExactOptions): GpExactState {
  const kernelOptions = options.kernel ?? {};
  if (typeof kernelOptions !== 'object' || kernelOptions === null) throw new ConfigError('must be an object {type, variance, lengthscale}', { field: 'kernel', value: kernelOptions });
  const ard = optionChecks.oneOf('kernel.type', kernelOptions.type, 'rbf', ['rbf', 'rbf-ard'] as const) === 'rbf-ard';
  const raw = kernelOptions.lengthscale ?? 1;
  const lengthscale = typeof raw === 'number' ? Array.from({ length: ard ? dim : 1 }, () => raw) : Array.from(raw);
  if (lengthscale.length !== (ard ? dim : 1)) throw new ConfigError(`kernel.lengthscale must have ${ard ? dim : 1} entries`, { field: 'kernel.lengthscale', value: raw });
  lengthscale.forEach((l, j) => optionChecks.positive(`kernel.lengthscale[${j}]`, l, 1));
  const variance = optionChecks.positive('kernel.variance', kernelOptions.variance, 1);
  const noiseVariance = optionChecks.positive('noiseVariance', options.noiseVariance, 1);
  const fixed = options.fixed ?? [];
  if (!Array.isArray(fixed)) throw new ConfigError('must be a list of kernel, noise', { field: 'fixed', value: fixed });
  for (const g of fixed) optionChecks.oneOf('fixed', g, 'kernel', ['kernel', 'noise'] as const);
  const initial = { variance, lengthscale, noiseVariance };
  return {
    dim, ard, fixedKernel: fixed.includes('kernel'), fixedNoise: fixed.includes('noise'),
    maxIterations: optionChecks.positiveInteger('maxIterations', options.maxIterations, 200),
    initial, params: initialParams(initial), x: new Float64Array(0), y: new Float64Array(0), records: 0, logMarginal: Number.NaN,
  };
}
