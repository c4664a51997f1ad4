import { ConfigError } from '../../core/config-error.js';
import { NumericalError } from '../../core/numerical-error.js';
import { spdInverse } from '../../linalg/spd-inverse.js';
import { gemv } from '../../linalg/gemv.js';
import type { PgLogitPrior } from './prior.js';

/** The prior as a user gives it: scalars (μ₀ = mean·1, Σ₀ = cov·I) or a full mean vector and covariance matrix. */
export interface PgLogitPriorOptions {
  readonly mean?: number | ArrayLike<number>;
  /** Σ₀: a variance (isotropic), rows (`number[][]`) or a flat row-major d×d array. */
  readonly cov?: number | ArrayLike<ArrayLike<number>> | Float64Array;
}

/** Default prior N(0, 10·I), the paper's Figure 1 setting (Durante & Rigon §3.2). */
export const PG_LOGIT_DEFAULT_PRIOR_VARIANCE = 10;

function finite(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ConfigError('must be a finite number', { field, value });
  return value;
}

/**
 * Validates the prior options and returns N(μ₀, Σ₀) as μ₀, Σ₀⁻¹, Σ₀⁻¹μ₀ and ln|Σ₀⁻¹| (one O(d³)
 * inversion at construction). Wrong lengths, non-finite entries, an asymmetric or non-positive-definite
 * Σ₀ throw {@link ConfigError} naming the entry.
 */
export function buildPgLogitPrior(d: number, options: PgLogitPriorOptions = {}): PgLogitPrior {
  if (options === null || typeof options !== 'object') throw new ConfigError('prior must be an object {mean, cov}', { field: 'prior', value: options });
  for (const key of Object.keys(options)) if (key !== 'mean' && key !== 'cov') throw new ConfigError('unknown prior key (expected mean, cov)', { field: `prior.${key}` });
  const mean = new Float64Array(d);
  const m = options.mean ?? 0;
  if (typeof m === 'number') mean.fill(finite('prior.mean', m));
  else if (m === null || typeof m !== 'object') throw new ConfigError('prior mean must be a number or an array', { field: 'prior.mean', value: m });
  else {
    if (m.length !== d) throw new ConfigError(`prior mean has ${m.length} entries, expected ${d}`, { field: 'prior.mean', value: m.length });
    for (let i = 0; i < d; i++) mean[i] = finite(`prior.mean[${i}]`, m[i]);
  }
  const cov = new Float64Array(d * d);
  const c = options.cov ?? PG_LOGIT_DEFAULT_PRIOR_VARIANCE;
  if (typeof c === 'number') {
    if (!(c > 0) || !Number.isFinite(c)) throw new ConfigError('prior variance must be a finite positive number', { field: 'prior.cov', value: c });
    for (let i = 0; i < d; i++) cov[i * d + i] = c;
  } else if (c === null || typeof c !== 'object') {
    throw new ConfigError('prior covariance must be a number or a matrix', { field: 'prior.cov', value: c });
  } else if (c instanceof Float64Array) {
    if (c.length !== d * d) throw new ConfigError(`flat prior covariance has ${c.length} entries, expected ${d * d}`, { field: 'prior.cov', value: c.length });
    for (let k = 0; k < d * d; k++) cov[k] = finite(`prior.cov[${Math.floor(k / d)}][${k % d}]`, c[k]);
  } else {
    if (c.length !== d) throw new ConfigError(`prior covariance has ${c.length} rows, expected ${d}`, { field: 'prior.cov', value: c.length });
    for (let i = 0; i < d; i++) {
      const row = c[i];
      if (row === null || typeof row !== 'object' || row.length !== d) throw new ConfigError(`prior covariance row ${i} must have ${d} entries`, { field: `prior.cov[${i}]` });
      for (let j = 0; j < d; j++) cov[i * d + j] = finite(`prior.cov[${i}][${j}]`, row[j]);
    }
  }
  for (let i = 0; i < d; i++) {
    for (let j = 0; j < i; j++) {
      if (cov[i * d + j] !== cov[j * d + i]) throw new ConfigError('prior covariance must be symmetric', { field: `prior.cov[${i}][${j}]`, value: cov[i * d + j] });
    }
  }
  const precision = new Float64Array(d * d);
  let logdetCov: number;
  try {
    logdetCov = spdInverse(cov, d, precision, new Float64Array(d * d), { what: 'prior covariance', maxTries: 0 });
  } catch (error) {
    if (error instanceof NumericalError) throw new ConfigError('prior covariance must be positive definite', { field: 'prior.cov' }, { cause: error });
    throw error;
  }
  const shift = new Float64Array(d);
  gemv(precision, d, d, mean, shift);
  return { mean, precision, shift, logdetPrecision: -logdetCov };
}
