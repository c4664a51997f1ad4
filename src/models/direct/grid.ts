import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import { copyDirectGrid } from './copy-grid.js';
import type { DirectGridOptions } from './grid-options.js';
import type { DirectGrid } from './state.js';

/** Default noise grid: 25 variances spaced geometrically from 1e-4 to 1e2. */
const DEFAULT_NOISE = Array.from({ length: 25 }, (_, k) => 10 ** (-4 + (6 * k) / 24));

function matrix(field: string, value: unknown, rows: number): number[][] {
  if (!Array.isArray(value) || value.length !== rows) throw new ConfigError(`must be an array of ${rows} rows (one per weight)`, { field, value: Array.isArray(value) ? `${value.length} rows` : value });
  return value.map((row: unknown, j) => vector(`${field}[${j}]`, row));
}

function vector(field: string, value: unknown): number[] {
  if (!Array.isArray(value) || value.length === 0) throw new ConfigError('must be a non-empty array of numbers', { field, value });
  value.forEach((v, m) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new ConfigError('must be a finite number', { field: `${field}[${m}]`, value: v });
  });
  return value as number[];
}

function logNormalised(field: string, probs: readonly number[], out: Float64Array, offset: number): void {
  let total = 0;
  probs.forEach((p, m) => {
    if (!(p > 0)) throw new ConfigError('prior probabilities must be positive', { field: `${field}[${m}]`, value: p });
    total += p;
  });
  const logTotal = Math.log(total);
  probs.forEach((p, m) => { out[offset + m] = Math.log(p) - logTotal; });
}

/**
 * Builds the discrete prior of Evans & Nair (appendix E default: support linspace(−3σ_w, 3σ_w, m̄) per
 * weight with P ∝ exp(−w̄²/2σ_w²), i.e. a discretised N(0, σ_w²)) or validates an explicit one.
 * Prior rows are normalised and stored as log-probabilities (as the authors' code log-softmaxes its
 * prior). `noise: false` builds the grid of the logistic model, which has no σ². With the `grid`
 * option (and no other grid option) the given grid is checked and copied bit for bit.
 */
export function buildDirectGrid(b: number, options: DirectGridOptions, noise: boolean): DirectGrid {
  if (options.grid !== undefined) {
    const other = (['supportSize', 'sigmaW', 'support', 'priorProbs', 'noiseSupport', 'noisePriorProbs'] as const).find((key) => options[key] !== undefined);
    if (other !== undefined) throw new ConfigError('give either grid or the options that build one, not both', { field: other });
    return copyDirectGrid(b, options.grid, noise);
  }
  const sigmaW = optionChecks.positive('sigmaW', options.sigmaW, 1);
  let rows: number[][];
  if (options.support !== undefined) {
    if (options.supportSize !== undefined) throw new ConfigError('give either support or supportSize, not both', { field: 'supportSize' });
    rows = matrix('support', options.support, b);
  } else {
    const mbar = optionChecks.positiveInteger('supportSize', options.supportSize, 15);
    if (mbar < 2) throw new ConfigError('must be at least 2', { field: 'supportSize', value: mbar });
    const row = Array.from({ length: mbar }, (_, m) => sigmaW * (-3 + (6 * m) / (mbar - 1)));
    rows = Array.from({ length: b }, () => row);
  }
  const mbar = rows[0].length;
  if (mbar > 256) throw new ConfigError('at most 256 atoms per weight (8-bit codes)', { field: 'support', value: mbar });
  const support = new Float64Array(b * mbar);
  rows.forEach((row, j) => {
    if (row.length !== mbar) throw new ConfigError(`every row must have ${mbar} atoms`, { field: `support[${j}]`, value: row.length });
    for (let m = 0; m < mbar; m++) {
      if (m > 0 && !(row[m] > row[m - 1])) throw new ConfigError('support rows must be strictly ascending', { field: `support[${j}][${m}]`, value: row[m] });
      support[j * mbar + m] = row[m];
    }
  });
  const logPrior = new Float64Array(b * mbar);
  if (options.priorProbs !== undefined) {
    const probs = matrix('priorProbs', options.priorProbs, b);
    probs.forEach((row, j) => {
      if (row.length !== mbar) throw new ConfigError(`every row must have ${mbar} probabilities`, { field: `priorProbs[${j}]`, value: row.length });
      logNormalised(`priorProbs[${j}]`, row, logPrior, j * mbar);
    });
  } else {
    for (let j = 0; j < b; j++) {
      const row = Array.from(support.subarray(j * mbar, j * mbar + mbar), (w) => Math.exp(-(w * w) / (2 * sigmaW * sigmaW)));
      logNormalised('priorProbs', row, logPrior, j * mbar);
    }
  }
  if (!noise) {
    if (options.noiseSupport !== undefined || options.noisePriorProbs !== undefined) throw new ConfigError('the logistic model has no noise variance', { field: 'noiseSupport' });
    return { b, mbar, K: 0, support, logPrior, noiseSupport: new Float64Array(0), logNoisePrior: new Float64Array(0) };
  }
  const noiseValues = options.noiseSupport === undefined ? DEFAULT_NOISE : vector('noiseSupport', options.noiseSupport);
  noiseValues.forEach((v, k) => {
    if (!(v > 0)) throw new ConfigError('noise variances must be positive', { field: `noiseSupport[${k}]`, value: v });
  });
  const K = noiseValues.length;
  const logNoisePrior = new Float64Array(K);
  const noiseProbs = options.noisePriorProbs === undefined ? new Array<number>(K).fill(1) : vector('noisePriorProbs', options.noisePriorProbs);
  if (noiseProbs.length !== K) throw new ConfigError(`must have ${K} probabilities (one per noise atom)`, { field: 'noisePriorProbs', value: noiseProbs.length });
  logNormalised('noisePriorProbs', noiseProbs, logNoisePrior, 0);
  return { b, mbar, K, support, logPrior, noiseSupport: Float64Array.from(noiseValues), logNoisePrior };
}
