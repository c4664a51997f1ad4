import type { OptionDocs } from '../../core/option-docs.js';
import { WEIGHT_GRID_OPTION_DOCS, type DirectGridOptions } from './grid-options.js';

/** Options of `direct-bnn`. */
export interface DirectBnnOptions extends DirectGridOptions {
  /** Hidden units H of the one quadratic hidden layer (default 4). */
  readonly hidden?: number;
  /** Standard deviation of the seeded noise added to the prior logits of the first warm start, which breaks the hidden units' symmetry (default 1). */
  readonly initScale?: number;
  /** Entropy temperatures τ > 1 of the annealing stages that precede the exact ELBO in each start (default [8, 4, 2]; []: the paper's L-BFGS alone). */
  readonly temperatures?: readonly number[];
  /** Starts per fit: the warm start plus restarts − 1 seeded random starts (default 1). */
  readonly restarts?: number;
  /** Seed of the first warm start's noise and of the random starts (default 1). */
  readonly seed?: number;
  /** L-BFGS iterations per start (default 1000, the paper's cap). */
  readonly maxIter?: number;
  /** Fit inside `update` once this many records arrived since the last fit (default 0: only when the posterior is read, or on `refit()`). */
  readonly refitEvery?: number;
}

/** What each option of {@link DirectBnnOptions} means. */
export const DIRECT_BNN_OPTION_DOCS: OptionDocs = {
  hidden: 'hidden units H of the quadratic hidden layer (default 4); b = H·(d+1) + H + 1 weights',
  ...WEIGHT_GRID_OPTION_DOCS,
  noiseSupport: 'noise-variance atoms σ²_k > 0 (default 25 values geometric from 1e-4 to 1e2)',
  noisePriorProbs: 'prior probabilities of the noise atoms (default uniform; normalised)',
  initScale: 'sd of the seeded noise on the prior logits of the first warm start, breaking the hidden units\' symmetry (default 1; 0: q = prior, a saddle)',
  temperatures: 'entropy temperatures τ > 1 of the deterministic-annealing stages before the exact ELBO, in each start (default [8, 4, 2]; []: L-BFGS on the exact ELBO alone, as the paper)',
  restarts: 'starts per fit: the warm start plus restarts − 1 seeded random starts (default 1)',
  seed: 'seed of the first warm start\'s noise and of the random starts (default 1)',
  maxIter: 'L-BFGS iterations per start (default 1000, the paper\'s cap)',
  refitEvery: 'fit inside update once this many records arrived since the last fit (default 0: only when the posterior is read, or on refit())',
};
