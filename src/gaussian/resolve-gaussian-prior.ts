import { ConfigError } from '../core/config-error.js';
import { NumericalError } from '../core/numerical-error.js';
import { cholesky } from '../linalg/cholesky.js';
import { choleskyInverse } from '../linalg/cholesky-inverse.js';
import { logDetCholesky } from '../linalg/log-det-cholesky.js';
import type { GaussianPriorOptions } from './gaussian-prior-options.js';

/** A validated Gaussian prior in every form the families use. */
export interface ResolvedGaussianPrior {
  readonly mean: Float64Array;
  /** Σ₀ (d×d, row-major). */
  readonly covariance: Float64Array;
  /** Lower Cholesky factor of Σ₀. */
  readonly factor: Float64Array;
  /** Σ₀⁻¹. */
  readonly precision: Float64Array;
  /** ln|Σ₀|. */
  readonly logDetCovariance: number;
}

function finite(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ConfigError('must be a finite number', { field, value });
  return value;
}

function positive(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !(value > 0)) throw new ConfigError('must be a finite positive number', { field, value });
  return value;
}

function isList(value: unknown): value is ArrayLike<unknown> {
  return Array.isArray(value) || value instanceof Float64Array;
}

/**
 * Checks `options` (`{mean, covariance}`, keys already checked) and returns the prior with its
 * Cholesky factor, precision and log-determinant (one O(d³) factorisation, no jitter). Lengths,
 * non-finite entries, an asymmetric or non-positive-definite Σ₀ throw `ConfigError` naming the entry
 * (`prior.covariance[1][0]`). Defaults: mean 0, covariance `defaultVariance`·I.
 */
export function resolveGaussianPrior(d: number, options: GaussianPriorOptions | undefined, defaultVariance: number): ResolvedGaussianPrior {
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) throw new ConfigError('prior must be an object {mean, covariance}', { field: 'prior', value: options });
  const mean = new Float64Array(d);
  const m = options?.mean ?? 0;
  if (typeof m === 'number') mean.fill(finite('prior.mean', m));
  else if (!isList(m)) throw new ConfigError(`must be a number or ${d} numbers`, { field: 'prior.mean', value: m });
  else {
    if (m.length !== d) throw new ConfigError(`prior mean has ${m.length} entries, expected ${d}`, { field: 'prior.mean', value: m.length });
    for (let i = 0; i < d; i++) mean[i] = finite(`prior.mean[${i}]`, m[i]);
  }
  const covariance = new Float64Array(d * d);
  const c: unknown = options?.covariance ?? defaultVariance;
  if (typeof c === 'number') {
    const v = positive('prior.covariance', c);
    for (let i = 0; i < d; i++) covariance[i * d + i] = v;
  } else if (c instanceof Float64Array && c.length === d * d) {
    for (let k = 0; k < d * d; k++) covariance[k] = finite(`prior.covariance[${Math.floor(k / d)}][${k % d}]`, c[k]);
  } else if (isList(c) && c.length === d && Array.from(c).every((row) => typeof row === 'number')) {
    for (let i = 0; i < d; i++) covariance[i * d + i] = positive(`prior.covariance[${i}]`, c[i]);
  } else if (isList(c) && c.length === d) {
    for (let i = 0; i < d; i++) {
      const row = c[i];
      if (!isList(row) || row.length !== d) throw new ConfigError(`covariance row ${i} must hold ${d} numbers`, { field: `prior.covariance[${i}]`, value: row });
      for (let j = 0; j < d; j++) covariance[i * d + j] = finite(`prior.covariance[${i}][${j}]`, row[j]);
    }
  } else {
    throw new ConfigError(`must be a variance, ${d} variances, a ${d}×${d} matrix or ${d * d} values row by row`, { field: 'prior.covariance', value: c });
  }
  for (let i = 0; i < d; i++) {
    for (let j = 0; j < i; j++) {
      if (covariance[i * d + j] !== covariance[j * d + i]) throw new ConfigError('prior covariance must be symmetric', { field: `prior.covariance[${i}][${j}]`, value: covariance[i * d + j] });
    }
  }
  const factor = new Float64Array(d * d);
  try {
    cholesky(covariance, d, factor, { what: 'prior covariance', maxTries: 0 });
  } catch (error) {
    if (error instanceof NumericalError) throw new ConfigError('prior covariance must be positive definite', { field: 'prior.covariance' }, { cause: error });
    throw error;
  }
  const precision = new Float64Array(d * d);
  choleskyInverse(factor, d, precision);
  return { mean, covariance, factor, precision, logDetCovariance: logDetCholesky(factor, d) };
}
