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
  /**
   * Components r of a mixture variational family q(w) = Σ_k π_k Π_j q_kj(w_j) (default 1: mean field).
   * With r > 1 the Adam steps act on the mixture bound (Theorem 2's likelihood bound per component,
   * Theorem 3's entropy bound), from r seeded perturbations of the prior, equal π, the Taylor centre at the prior.
   */
  readonly components?: number;
  /** Seed of the perturbations that start the mixture components (default 1). */
  readonly seed?: number;
  /** A feature map applied to each record (records then carry raw inputs x), or an existing model's map. */
  readonly features?: RffOptions | RandomFourierFeatures;
}

/** What each option of {@link DirectLogitOptions} means. */
export const DIRECT_LOGIT_OPTION_DOCS: OptionDocs = {
  ...WEIGHT_GRID_OPTION_DOCS,
  learningRate: 'Adam step size on the logits (default 0.05)',
  stepsPerBatch: 'Adam steps per update (default 1)',
  dataSize: 'N in the minibatch scale N/|batch| (default 0: the records seen so far, this batch included)',
  components: 'mixture components r of q(w) (default 1: mean field; r > 1: Adam on the Theorem-2/Theorem-3 mixture bound)',
  seed: 'seed of the perturbations that start the mixture components (default 1)',
  features: FEATURES_OPTION_DOCS,
};
