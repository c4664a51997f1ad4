import { optionChecks } from '../../core/option-checks.js';
import type { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import { Adam } from '../../optim/adam.js';
import { rffFromOptions } from './feature-options.js';
import { buildDirectGrid } from './grid.js';
import type { DirectLogitOptions } from './logit-options.js';
import type { DirectGrid } from './state.js';

/** Settings of `direct-logit`: Adam's step size, steps per update and N of the minibatch scale (0: records seen). */
export interface DirectLogitSettings {
  readonly learningRate: number;
  readonly stepsPerBatch: number;
  readonly dataSize: number;
}

/** Everything a `direct-logit` model is: grid (no noise atoms), feature map, settings, the weight logits and their optimiser. */
export interface DirectLogitState {
  readonly dim: number;
  readonly grid: DirectGrid;
  readonly features: RandomFourierFeatures | undefined;
  readonly settings: DirectLogitSettings;
  /** b·m̄ weight logits (row j = weight j) of the mean-field categorical q. */
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
  };
  return { dim, grid, features, settings, logits: grid.logPrior.slice(), adam: new Adam(b * grid.mbar, { learningRate }), records: 0 };
}
