import type { OptionDocs } from '../../core/option-docs.js';
import type { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import { FEATURES_OPTION_DOCS, type RffOptions } from './feature-options.js';
import { WEIGHT_GRID_OPTION_DOCS, type DirectGridOptions } from './grid-options.js';

/** Options of `direct-logit`. */
export interface DirectLogitOptions extends Omit<DirectGridOptions, 'noiseSupport' | 'noisePriorProbs'> {
  /** Adam step size on the logits (default 0.05). */
  readonly learningRate?: number;
  /** Adam steps per `update` (default 1). */
  readonly stepsPerBatch?: number;
  /** N in the minibatch scale N/|batch| (default 0: the records seen so far, this batch included). */
  readonly dataSize?: number;
  /** A feature map applied to each record (records then carry raw inputs x), or an existing model's map. */
  readonly features?: RffOptions | RandomFourierFeatures;
}

/** What each option of {@link DirectLogitOptions} means. */
export const DIRECT_LOGIT_OPTION_DOCS: OptionDocs = {
  ...WEIGHT_GRID_OPTION_DOCS,
  learningRate: 'Adam step size on the logits (default 0.05)',
  stepsPerBatch: 'Adam steps per update (default 1)',
  dataSize: 'N in the minibatch scale N/|batch| (default 0: the records seen so far, this batch included)',
  features: FEATURES_OPTION_DOCS,
};
