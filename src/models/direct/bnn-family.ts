import { checkFeatures } from '../../core/check-features.js';
import { defineFamily } from '../../core/define-family.js';
import type { Family } from '../../core/family.js';
import { ModelShell } from '../../core/model-shell.js';
import type { OnlineModel } from '../../core/online-model.js';
import { GaussianPredictive } from '../../core/predictive/gaussian-predictive.js';
import type { Rng } from '../../rng/rng.js';
import { adoptDirectBnnFit } from './bnn-adopt-fit.js';
import { directBnnPosterior } from './bnn-cached-posterior.js';
import { directBnnCodec } from './bnn-codec.js';
import { createDirectBnnState } from './bnn-create-state.js';
import { fitDirectBnn } from './bnn-fit.js';
import { DIRECT_BNN_OPTION_DOCS, type DirectBnnOptions } from './bnn-options.js';
import type { DirectBnnPosterior } from './bnn-posterior.js';
import { directBnnPredictiveMoments } from './bnn-predict.js';
import type { DirectBnnShape, DirectBnnState } from './bnn-state.js';
import { directBnnStateIsFinite } from './bnn-state-is-finite.js';
import { directBnnStep } from './bnn-step.js';
import { createDirectBnnWorkspace, type DirectBnnWorkspace } from './bnn-workspace.js';
import { drawCodes } from './draw-codes.js';
import type { DirectPredictiveMoments } from './predict.js';
import { QuantizedWeights } from './quantized-weights.js';
import type { DirectGrid } from './state.js';

function momentsAt(state: DirectBnnState, workspace: DirectBnnWorkspace, x: Float64Array, offset: number): DirectPredictiveMoments {
  const p = directBnnPosterior(state, workspace);
  return directBnnPredictiveMoments(state.shape, p.moments, p.expectedNoise, x, offset);
}

function sampleCodes(state: DirectBnnState, workspace: DirectBnnWorkspace, rng: Rng): QuantizedWeights {
  const { b, mbar, support } = state.grid;
  return drawCodes(directBnnPosterior(state, workspace).probs, b, mbar, rng, new QuantizedWeights(b, support, mbar));
}

/** A `direct-bnn` model: the shell plus the network shape, the grid, the fitted q, exact predictive moments, 4-bit code draws and an explicit `refit()`. */
export class DirectBnnModel extends ModelShell<DirectBnnOptions, DirectBnnState, DirectBnnWorkspace, GaussianPredictive> {
  declare readonly merge: (other: OnlineModel) => void;
  declare readonly forget: (factor: number) => void;

  /** d, D = d + 1, H and the number of weights b (ordered u, v, c). */
  get shape(): DirectBnnShape {
    return this.state.shape;
  }

  /** The grid (support and prior log-probabilities). */
  get grid(): DirectGrid {
    return this.state.grid;
  }

  /** The fitted q (fitted from the committed logits when the statistics changed since; cached, the state untouched). */
  posterior(): DirectBnnPosterior {
    return directBnnPosterior(this.state, this.workspace);
  }

  /** Fits now (warm start from the committed logits, plus the configured restarts) and commits the fit as the new warm start. */
  refit(): DirectBnnPosterior {
    return this.commit((state, workspace) => {
      const fit = fitDirectBnn(state, workspace);
      adoptDirectBnnFit(state, fit);
      return fit;
    });
  }

  /** Exact predictive mean, latent variance Var f and variance of y at one record (checked like `predict`). */
  moments(x: Float64Array, offset = 0): DirectPredictiveMoments {
    checkFeatures(x, offset, this.state.dim, this.maxAbsInput);
    return momentsAt(this.state, this.workspace, x, offset);
  }

  /** Draws all weights w ~ q as packed integer codes (4-bit when m̄ ≤ 16) with their decoder. */
  sampleCodes(rng: Rng): QuantizedWeights {
    return sampleCodes(this.state, this.workspace, rng);
  }
}

/**
 * `direct-bnn`: a DIRECT Bayesian neural network for regression (Evans & Nair §3.2, appendix D):
 * one hidden layer of H quadratic units, f(x) = Σ_h v_h (u_hᵀx̃)² + c, discrete priors on every weight
 * and on σ², a mean-field categorical q fitted by L-BFGS on the exact ELBO computed from the moment
 * tensors of x̃ up to order 4 and of y·x̃ up to order 2 (independent of n).
 */
export const directBnnFamily: Family<DirectBnnOptions, DirectBnnModel> = defineFamily({
  id: 'direct-bnn',
  summary: 'DIRECT Bayesian neural network: one quadratic hidden layer, discrete priors, mean-field categorical q, exact ELBO from streaming, mergeable moment statistics (Evans & Nair, appendix D)',
  semantics: 'keeps Σx̃⊗x̃⊗x̃⊗x̃ (C(d+4, 4) values), Σy·x̃x̃ᵀ and yᵀy, x̃ = (x, 1); q is fitted from them when the posterior is read (cached, warm-started from the last committed fit), or inside update every refitEvery records, or on refit(); '
    + 'with refitEvery 0 (the default) a stream cut anywhere gives the same statistics, with refitEvery > 0 the fits happen at batch ends, so batching is declared dependent; merge adds the statistics (exact); forget scales them',
  task: 'regression', batching: 'dependent', weights: true,
  options: DIRECT_BNN_OPTION_DOCS,
  create: (dim, options) => createDirectBnnState(dim, options),
  optionsOf: (state) => ({ hidden: state.shape.H, grid: state.grid, ...state.settings }),
  workspace: (state) => createDirectBnnWorkspace(state),
  reset(workspace) {
    workspace.posterior = undefined;
  },
  recordsSeen: (state) => state.stats.records,
  isFinite: directBnnStateIsFinite,
  step: directBnnStep,
  /** Gaussian with the exact predictive mean and variance (the true predictive is a finite Gaussian mixture; logProb is the moment-matched one). */
  predict(state, workspace, x, offset) {
    const m = momentsAt(state, workspace, x, offset);
    return new GaussianPredictive(m.mean, m.variance);
  },
  sample: (state, workspace, rng, out = new Float64Array(state.grid.b)) => sampleCodes(state, workspace, rng).decode(out),
  /** The exact mean-field ELBO (eq. 12 with eq. 34–39) with every constant, at the fitted q. */
  evidenceBound: (state, workspace) => directBnnPosterior(state, workspace).elbo,
  posteriorMean: (state, workspace) => directBnnPosterior(state, workspace).mean.slice(),
  posteriorSummary(state, workspace) {
    const p = directBnnPosterior(state, workspace);
    let norm = 0;
    let traceCovariance = 0;
    for (let j = 0; j < p.mean.length; j++) { norm += p.mean[j] * p.mean[j]; traceCovariance += p.variance[j]; }
    return { meanNorm: Math.sqrt(norm), traceCovariance, effectiveDataSize: state.stats.fourth[state.stats.fourth.length - 1] };
  },
  codec: directBnnCodec,
  /** Adds the other model's statistics: exactly the model fed both streams; this model's logits stay the warm start. */
  merge: {
    exact: true,
    key: (state) => ({ hidden: state.shape.H, grid: state.grid }),
    apply(a, b) {
      const s = a.stats;
      for (let i = 0; i < s.fourth.length; i++) s.fourth[i] += b.stats.fourth[i];
      for (let i = 0; i < s.crossY.length; i++) s.crossY[i] += b.stats.crossY[i];
      s.yty += b.stats.yty;
      s.records += b.stats.records;
      a.sinceFit += b.stats.records;
      a.stale = true;
    },
  },
  /** Power prior: scales the statistics by `factor`, so old records count less. */
  forget(state, factor) {
    const s = state.stats;
    for (let i = 0; i < s.fourth.length; i++) s.fourth[i] *= factor;
    for (let i = 0; i < s.crossY.length; i++) s.crossY[i] *= factor;
    s.yty *= factor;
    state.stale = true;
  },
}, DirectBnnModel);
