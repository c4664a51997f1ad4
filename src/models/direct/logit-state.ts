import { optionChecks } from '../../core/option-checks.js';
import type { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import { Adam } from '../../optim/adam.js';
import { Rng } from '../../rng/rng.js';
import { rffFromOptions } from './feature-options.js';
import { buildDirectGrid } from './grid.js';
import { DirectLogitMixtureBound } from './logit-mixture-bound.js';
import type { DirectLogitOptions } from './logit-options.js';
import type { DirectGrid } from './state.js';

/** Settings of `direct-logit`: Adam's step size, steps per update, N of the minibatch scale (0: records seen), mixture components and their seed. */
export interface DirectLogitSettings {
  readonly learningRate: number;
  readonly stepsPerBatch: number;
  readonly dataSize: number;
  readonly components: number;
  readonly seed: number;
}

/** Standard deviation of the seeded perturbation of the prior logits that starts each mixture component. */
const MIXTURE_PERTURBATION = 1;

/** Everything a `direct-logit` model is: grid (no noise atoms), feature map, settings, the weight logits and their optimiser. */
export interface DirectLogitState {
  readonly dim: number;
  readonly grid: DirectGrid;
  readonly features: RandomFourierFeatures | undefined;
  readonly settings: DirectLogitSettings;
  /** b·m̄ weight logits (row j = weight j) of the mean-field categorical q; with components r > 1, the parameters of {@link DirectLogitMixtureBound}. */
  readonly logits: Float64Array;
  readonly adam: Adam;
  records: number;
}

/** q = prior and a fresh Adam, for records of `dim` values (Φ, or raw inputs with `features`); a bad option value throws `ConfigError`. */
export function createDirectLogitState(dim: number, options: DirectLogitOptions): DirectLogitState {
  const features = rffFromOptions(dim, options.features);
  const b = features === undefined ? dim : features.outputDim;
  const grid = buildDirectGrid(b, options, false);
  const learningRate = optionChecks.positive('learningRate', options.learningRate, 0.05);
  const settings = {
    learningRate,
    stepsPerBatch: optionChecks.positiveInteger('stepsPerBatch', options.stepsPerBatch, 1),
    dataSize: options.dataSize === undefined || options.dataSize === 0 ? 0 : optionChecks.positiveInteger('dataSize', options.dataSize, 0),
    components: optionChecks.positiveInteger('components', options.components, 1),
    seed: optionChecks.nonNegativeInteger('seed', options.seed, 1),
  };
  const logits = settings.components === 1 ? grid.logPrior.slice() : mixtureStart(grid, settings.components, settings.seed);
  return { dim, grid, features, settings, logits, adam: new Adam(logits.length, { learningRate }), records: 0 };
}

/**
 * The start of a mixture (as the paper's appendix E, from the prior instead of a mean-field fit, which a
 * stream does not have yet): each component the prior logits plus seeded N(0, 1) draws, equal π, the
 * Taylor centre at the prior.
 */
function mixtureStart(grid: DirectGrid, components: number, seed: number): Float64Array {
  const bm = grid.b * grid.mbar;
  const start = new Float64Array(DirectLogitMixtureBound.sizeFor(grid, components));
  const rng = Rng.fromSeed(seed);
  for (let k = 0; k < components; k++) for (let i = 0; i < bm; i++) start[k * bm + i] = grid.logPrior[i] + MIXTURE_PERTURBATION * rng.normal();
  start.set(grid.logPrior, components * (bm + 1));
  return start;
}
