import { defineFamily } from '../../core/define-family.js';
import type { Family } from '../../core/family.js';
import { ModelShell } from '../../core/model-shell.js';
import { GaussianPredictive } from '../../core/predictive/gaussian-predictive.js';
import { gpExactCodec } from './codec.js';
import { gpExactLatent } from './latent.js';
import { gpExactLatentCovariance } from './latent-covariance.js';
import { GP_EXACT_OPTION_DOCS, type GpExactOptions } from './options.js';
import { createGpExactState, type GpExactState } from './state.js';
import { gpExactStep } from './step.js';
import { gpExactWorkspace, setGpExactKernel, type GpExactWorkspace } from './workspace.js';

/** An exact GP: the shell plus the hyperparameters, log p(y | X, θ), latent marginals and the joint latent covariance. */
export class GpExactModel extends ModelShell<GpExactOptions, GpExactState, GpExactWorkspace, GaussianPredictive> {
  /** Whether the kernel is RBF-ARD. */
  get ard(): boolean {
    return this.state.ard;
  }

  /** log p(y | X, θ) at the current hyperparameters. */
  get logMarginal(): number {
    return this.state.logMarginal;
  }

  /** Current s², ℓ and σ². */
  hyperparameters(): { variance: number; lengthscale: number[]; noiseVariance: number } {
    const noiseVariance = setGpExactKernel(this.workspace, this.state.params);
    const { kernel } = this.workspace;
    return { variance: kernel.variance, lengthscale: Array.from({ length: this.state.ard ? this.state.dim : 1 }, (_, j) => kernel.lengthscale(j)), noiseVariance };
  }

  /** Latent f at the m rows of xs ({@link gpExactLatent}). */
  predictLatent(xs: Float64Array, m: number): { mean: Float64Array; variance: Float64Array } {
    return gpExactLatent(this.state, this.workspace, xs, m);
  }

  /** Joint posterior covariance of f at the m rows of xs ({@link gpExactLatentCovariance}). */
  latentCovariance(xs: Float64Array, m: number): Float64Array {
    return gpExactLatentCovariance(this.state, this.workspace, xs, m);
  }
}

/**
 * `gp-exact`: exact GP regression, the reference for small n (Rasmussen & Williams 2006, Alg. 2.1):
 * zero mean, RBF / RBF-ARD kernel, hyperparameters maximising log p(y | X, θ) (eq. 5.8) by L-BFGS from
 * their current values. The model keeps every record: `update` appends the batch and refits, O(n³).
 */
export const gpExactFamily: Family<GpExactOptions, GpExactModel> = defineFamily({
  id: 'gp-exact',
  summary: 'Exact GP regression (Cholesky), hyperparameters by maximum marginal likelihood (L-BFGS); keeps every record, O(n³) per update',
  semantics: 'keeps every record; each update appends its batch and refits the hyperparameters from their current values, so where the stream is cut changes them; no merge or forget',
  task: 'regression', batching: 'dependent', weights: false,
  options: GP_EXACT_OPTION_DOCS,
  create: createGpExactState,
  optionsOf: (state) => ({
    kernel: { type: state.ard ? 'rbf-ard' : 'rbf', variance: state.initial.variance, lengthscale: [...state.initial.lengthscale] },
    noiseVariance: state.initial.noiseVariance,
    fixed: [...(state.fixedKernel ? ['kernel' as const] : []), ...(state.fixedNoise ? ['noise' as const] : [])],
    maxIterations: state.maxIterations,
  }),
  workspace: gpExactWorkspace,
  reset(workspace) {
    workspace.fitted = undefined;
  },
  recordsSeen: (state) => state.records,
  step: gpExactStep,
  predict(state, workspace, x, offset) {
    const latent = gpExactLatent(state, workspace, x.subarray(offset, offset + state.dim), 1);
    return new GaussianPredictive(latent.mean[0], latent.variance[0] + Math.exp(state.params[workspace.kernel.size]));
  },
  /** The exact GP's parameters are its hyperparameters: a "draw" is [log s², log ℓ…, log σ²] (there is no posterior over them). */
  sample(state, _workspace, _rng, out = new Float64Array(state.params.length)) {
    out.set(state.params);
    return out;
  },
  posteriorMean: (state) => state.params.slice(),
  posteriorSummary(state) {
    let norm = 0;
    for (const v of state.params) norm += v * v;
    return { meanNorm: Math.sqrt(norm), effectiveDataSize: state.records };
  },
  codec: gpExactCodec,
}, GpExactModel);
