import { ConfigError } from '../../core/config-error.js';
import type { DirectGrid } from './state.js';

/** Largest |logsumexp − 0| of a prior row that still counts as normalised. */
const NORMALISATION_TOLERANCE = 1e-9;

function values(field: string, value: unknown, length: number): Float64Array {
  if (!(value instanceof Float64Array) || value.length !== length) throw new ConfigError(`must be a Float64Array of ${length} values`, { field, value: value instanceof Float64Array ? value.length : typeof value });
  const index = value.findIndex((v) => !Number.isFinite(v));
  if (index >= 0) throw new ConfigError('must be finite', { field: `${field}[${index}]`, value: value[index] });
  return value.slice();
}

function checkNormalised(field: string, logProbs: Float64Array, rows: number, width: number): void {
  for (let j = 0; j < rows; j++) {
    let total = 0;
    for (let m = 0; m < width; m++) total += Math.exp(logProbs[j * width + m]);
    if (!(Math.abs(Math.log(total)) <= NORMALISATION_TOLERANCE)) throw new ConfigError('prior log-probabilities must be normalised', { field: `${field}[${j}]`, value: total });
  }
}

/**
 * A checked copy of an existing grid (the `grid` option) for `b` weights: same shapes and values bit
 * for bit, supports strictly ascending, noise atoms positive, prior rows normalised; `noise: false`
 * (the logistic model) requires a grid without noise atoms.
 */
export function copyDirectGrid(b: number, grid: DirectGrid, noise: boolean): DirectGrid {
  if (typeof grid !== 'object' || grid === null) throw new ConfigError('must be the grid of a DIRECT model', { field: 'grid', value: grid });
  if (grid.b !== b) throw new ConfigError(`has ${grid.b} weights, the model has ${b}`, { field: 'grid.b', value: grid.b });
  const { mbar, K } = grid;
  if (!Number.isInteger(mbar) || mbar < 2 || mbar > 256) throw new ConfigError('must be an integer in [2, 256]', { field: 'grid.mbar', value: mbar });
  if (noise ? !(Number.isInteger(K) && K >= 1) : K !== 0) throw new ConfigError(noise ? 'must be a positive integer' : 'the logistic model has no noise variance', { field: 'grid.K', value: K });
  const support = values('grid.support', grid.support, b * mbar);
  for (let j = 0; j < b; j++) {
    for (let m = 1; m < mbar; m++) if (!(support[j * mbar + m] > support[j * mbar + m - 1])) throw new ConfigError('support rows must be strictly ascending', { field: `grid.support[${j * mbar + m}]`, value: support[j * mbar + m] });
  }
  const logPrior = values('grid.logPrior', grid.logPrior, b * mbar);
  checkNormalised('grid.logPrior', logPrior, b, mbar);
  const noiseSupport = values('grid.noiseSupport', grid.noiseSupport, K);
  const index = noiseSupport.findIndex((v) => !(v > 0));
  if (index >= 0) throw new ConfigError('noise variances must be positive', { field: `grid.noiseSupport[${index}]`, value: noiseSupport[index] });
  const logNoisePrior = values('grid.logNoisePrior', grid.logNoisePrior, K);
  if (K > 0) checkNormalised('grid.logNoisePrior', logNoisePrior, 1, K);
  return { b, mbar, K, support, logPrior, noiseSupport, logNoisePrior };
}
