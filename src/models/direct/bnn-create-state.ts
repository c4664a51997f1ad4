import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import { Rng } from '../../rng/rng.js';
import type { DirectBnnOptions } from './bnn-options.js';
import { directBnnPackedSizes } from './bnn-packed-sizes.js';
import type { DirectBnnState } from './bnn-state.js';
import { tiltedPrior } from './bnn-tilted-prior.js';
import { buildDirectGrid } from './grid.js';

/**
 * Largest input dimension d: the statistics hold C(d+4, 4) fourth moments (2,380 at d = 13, 4,845 at
 * d = 16), each record costs that many multiply-adds, and each ELBO evaluation O(H·(d+1)⁴); past a
 * few dozen inputs n-independence is no longer worth its price.
 */
export const DIRECT_BNN_MAX_INPUTS = 16;

function temperatures(value: unknown): number[] {
  if (value === undefined) return [8, 4, 2];
  if (!Array.isArray(value)) throw new ConfigError('must be an array of numbers > 1', { field: 'temperatures', value });
  value.forEach((t, i) => {
    if (typeof t !== 'number' || !(t > 1) || !Number.isFinite(t)) throw new ConfigError('must be a finite number > 1', { field: `temperatures[${i}]`, value: t });
  });
  return [...(value as number[])];
}

/**
 * The state of a `direct-bnn` model with no data for records of `dim` inputs: the grid over the
 * b = H·(d+1) + H + 1 weights and the noise atoms, and the first warm start, the prior tilted by
 * seeded N(0, initScale²) draws (`tiltedPrior`: q = prior is a saddle), q(σ²) = its prior. A bad
 * option value throws `ConfigError`.
 */
export function createDirectBnnState(dim: number, options: DirectBnnOptions): DirectBnnState {
  if (dim > DIRECT_BNN_MAX_INPUTS) {
    throw new ConfigError(`direct-bnn takes at most ${DIRECT_BNN_MAX_INPUTS} inputs: its statistics grow as C(d+4, 4) and each ELBO evaluation as H·(d+1)⁴`, { field: 'dim', value: dim });
  }
  const H = optionChecks.positiveInteger('hidden', options.hidden, 4);
  const D = dim + 1;
  const b = H * D + H + 1;
  const grid = buildDirectGrid(b, options, true);
  const seed = optionChecks.nonNegativeInteger('seed', options.seed, 1);
  const settings = {
    restarts: optionChecks.positiveInteger('restarts', options.restarts, 1),
    seed,
    maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 1000),
    refitEvery: options.refitEvery === undefined || options.refitEvery === 0 ? 0 : optionChecks.positiveInteger('refitEvery', options.refitEvery, 0),
    initScale: optionChecks.nonNegative('initScale', options.initScale, 1),
    temperatures: temperatures(options.temperatures),
  };
  const weightLogits = grid.b * grid.mbar;
  const logits = new Float64Array(weightLogits + grid.K);
  tiltedPrior(grid, Rng.fromSeed(seed), settings.initScale, logits);
  logits.set(grid.logNoisePrior, weightLogits);
  const sizes = directBnnPackedSizes(D);
  return {
    dim, shape: { d: dim, D, H, b }, grid, settings,
    stats: { fourth: new Float64Array(sizes.fourth), crossY: new Float64Array(sizes.crossY), yty: 0, records: 0 },
    logits, stale: true, sinceFit: 0, lastFit: { iterations: 0, converged: true, startElbos: [] },
  };
}
