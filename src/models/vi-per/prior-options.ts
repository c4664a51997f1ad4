import { ConfigError } from '../../core/config-error.js';
import { NumericalError } from '../../core/numerical-error.js';
import { gaussianFromCovariance, type GaussianPrior } from './gaussian-prior.js';
import type { ViPerOptions } from './options.js';

function finite(field: string, value: unknown, positive: boolean): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || (positive && !(value > 0))) {
    throw new ConfigError(positive ? 'must be a finite positive number' : 'must be a finite number', { field, value });
  }
  return value;
}

function vector(field: string, value: unknown, d: number, positive: boolean): Float64Array {
  if (typeof value === 'number') return new Float64Array(d).fill(finite(field, value, positive));
  if (!Array.isArray(value) || value.length !== d) throw new ConfigError(`must be a number or an array of ${d} numbers`, { field, value });
  return Float64Array.from(value, (v: unknown, i) => finite(`${field}[${i}]`, v, positive));
}

/** The prior N(mean, covariance) from `options.prior` (default N(0, I)); a malformed or non-positive-definite prior throws `ConfigError`. */
export function resolvePrior(prior: ViPerOptions['prior'], d: number): GaussianPrior {
  const mean = vector('prior.mean', prior?.mean ?? 0, d, false);
  const variance: unknown = prior?.variance ?? 1;
  const covariance = new Float64Array(d * d);
  if (Array.isArray(variance) && variance.length === d && variance.every((row) => Array.isArray(row))) {
    variance.forEach((row: unknown[], i) => {
      if (row.length !== d) throw new ConfigError(`covariance row must hold ${d} numbers`, { field: `prior.variance[${i}]`, value: row });
      row.forEach((v, j) => { covariance[i * d + j] = finite(`prior.variance[${i}][${j}]`, v, false); });
    });
    for (let i = 0; i < d; i++) {
      for (let j = 0; j < i; j++) {
        if (covariance[i * d + j] !== covariance[j * d + i]) throw new ConfigError('covariance must be symmetric', { field: `prior.variance[${i}][${j}]`, value: covariance[i * d + j] });
      }
    }
  } else {
    const diagonal = vector('prior.variance', variance, d, true);
    for (let i = 0; i < d; i++) covariance[i * d + i] = diagonal[i];
  }
  try {
    return gaussianFromCovariance(mean, covariance, d);
  } catch (error) {
    if (error instanceof NumericalError) throw new ConfigError('prior covariance is not positive definite', { field: 'prior.variance' }, { cause: error });
    throw error;
  }
}
