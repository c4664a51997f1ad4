import type { OptionDocs } from '../../core/option-docs.js';

/** Options of `gp-exact`. */
export interface GpExactOptions {
  readonly kernel?: { readonly type?: 'rbf' | 'rbf-ard'; readonly variance?: number; readonly lengthscale?: number | readonly number[] };
  readonly noiseVariance?: number;
  /** Hold the kernel and/or the noise at their given values instead of maximising the marginal likelihood. */
  readonly fixed?: readonly ('kernel' | 'noise')[];
  /** L-BFGS iterations per hyperparameter fit; default 200. */
  readonly maxIterations?: number;
}

/** What each option of {@link GpExactOptions} means. */
export const GP_EXACT_OPTION_DOCS: OptionDocs = {
  kernel: {
    type: 'rbf (default) or rbf-ard (one lengthscale per input)',
    variance: 'initial kernel variance s² (default 1)',
    lengthscale: 'initial lengthscale ℓ, a number or (rbf-ard) one per input (default 1)',
  },
  noiseVariance: 'initial Gaussian noise variance σ² (default 1)',
  fixed: 'hyperparameters held at their initial values instead of maximising the marginal likelihood: kernel, noise (default none)',
  maxIterations: 'L-BFGS iterations per hyperparameter fit (default 200)',
};
