import type { OptionDocs } from '../../core/option-docs.js';
import type { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import { FEATURES_OPTION_DOCS, type RffOptions } from './feature-options.js';
import { WEIGHT_GRID_OPTION_DOCS, type DirectGridOptions } from './grid-options.js';

/** Options of `direct`. */
export interface DirectOptions extends DirectGridOptions {
  /** Starts per fit: the warm start plus restarts − 1 seeded random starts (default 1). */
  readonly restarts?: number;
  /** Seed of the random starts (default 1). */
  readonly seed?: number;
  /** L-BFGS iterations per start (default 1000, the paper's cap). */
  readonly maxIter?: number;
  /** Fit inside `update` once this many records arrived since the last fit (default 0: only when the posterior is read, or on `refit()`). */
  readonly refitEvery?: number;
  /**
   * Exact coordinate-ascent sweeps on the categorical factors that initialise each L-BFGS start
   * (default 200, stopping early when q stops moving; 0: L-BFGS straight from the start as in the paper).
   */
  readonly caviSweeps?: number;
  /**
   * Components r of a mixture variational family q(w) = Σ_k π_k Π_j q_kj(w_j) (default 1: mean field,
   * the L-BFGS fit alone). With r > 1 the mean-field fit is followed by Adam on the Theorem-3 bound (§4),
   * from perturbed copies of the mean-field q; the result is the best bound seen, or the mean-field q
   * itself (as a mixture of equal components) if the steps never beat it.
   */
  readonly components?: number;
  /** Adam steps of the mixture fit (default 500). */
  readonly mixtureSteps?: number;
  /** Adam learning rate of the mixture fit (default 0.05). */
  readonly mixtureLearningRate?: number;
  /** Entropy gradient of the mixture fit: 'stochastic' (eq. 11, default) or 'bound' (Theorem 3's exact gradient). */
  readonly mixtureEntropy?: 'stochastic' | 'bound';
  /** Draws per step of the eq. (11) estimator (default 3000, the paper's t). */
  readonly entropySamples?: number;
  /** A feature map applied to each record (records then carry raw inputs x), or an existing model's map. */
  readonly features?: RffOptions | RandomFourierFeatures;
}

/** What each option of {@link DirectOptions} means. */
export const DIRECT_OPTION_DOCS: OptionDocs = {
  ...WEIGHT_GRID_OPTION_DOCS,
  noiseSupport: 'noise-variance atoms σ²_k > 0 (default 25 values geometric from 1e-4 to 1e2)',
  noisePriorProbs: 'prior probabilities of the noise atoms (default uniform; normalised)',
  restarts: 'starts per fit: the warm start plus restarts − 1 seeded random starts (default 1)',
  seed: 'seed of the random starts and of the mixture fit (default 1)',
  maxIter: 'L-BFGS iterations per start (default 1000, the paper\'s cap)',
  refitEvery: 'fit inside update once this many records arrived since the last fit (default 0: only when the posterior is read, or on refit())',
  caviSweeps: 'CAVI sweeps that initialise each L-BFGS start (default 200; 0: L-BFGS alone, as the paper)',
  components: 'mixture components r of q(w) (default 1: mean field; r > 1: the Theorem-3 mixture fit)',
  mixtureSteps: 'Adam steps of the mixture fit (default 500)',
  mixtureLearningRate: 'Adam learning rate of the mixture fit (default 0.05)',
  mixtureEntropy: "entropy gradient of the mixture fit: 'stochastic' (eq. 11, default) or 'bound' (Theorem 3)",
  entropySamples: 'draws per step of the eq. (11) estimator (default 3000)',
  features: FEATURES_OPTION_DOCS,
};
