import { checkFeatures } from '../../core/check-features.js';
import { defineFamily } from '../../core/define-family.js';
import type { Family } from '../../core/family.js';
import { ModelShell } from '../../core/model-shell.js';
import type { OnlineModel } from '../../core/online-model.js';
import { GaussianPredictive } from '../../core/predictive/gaussian-predictive.js';
import type { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import type { Rng } from '../../rng/rng.js';
import { adoptDirectFit } from './adopt-fit.js';
import { directPosterior } from './cached-posterior.js';
import { directCodec } from './codec.js';
import { createDirectState } from './create-state.js';
import { drawMixtureCodes } from './draw-mixture-codes.js';
import { evaluateDirectPosterior } from './evaluate-posterior.js';
import { DIRECT_OPTION_DOCS, type DirectOptions } from './options.js';
import type { DirectPosterior } from './posterior.js';
import type { DirectPredictiveMoments } from './predict.js';
import { fitDirectQ } from './q-fit.js';
import type { QuantizedWeights } from './quantized-weights.js';
import { directRecordMoments } from './record-moments.js';
import type { DirectGrid, DirectState } from './state.js';
import { directStateIsFinite } from './state-is-finite.js';
import { directStep } from './step.js';
import { createDirectWorkspace, type DirectWorkspace } from './workspace.js';

/** A `direct` model: the shell plus the grid, the feature map, the fitted q, exact predictive moments, code draws and an explicit `refit()`. */
export class DirectModel extends ModelShell<DirectOptions, DirectState, DirectWorkspace, GaussianPredictive> {
  declare readonly merge: (other: OnlineModel) => void;
  declare readonly forget: (factor: number) => void;

  /** Number of weights b. */
  get weightCount(): number {
    return this.state.grid.b;
  }

  /** The grid (support and prior log-probabilities). */
  get grid(): DirectGrid {
    return this.state.grid;
  }

  /** The feature map, when records carry raw inputs. */
  get featureMap(): RandomFourierFeatures | undefined {
    return this.state.features;
  }

  /** The fitted q (fitted from the committed logits when the statistics changed since; cached, the state untouched). */
  posterior(): DirectPosterior {
    return directPosterior(this.state, this.workspace);
  }

  /** Fits now (warm start from the committed logits, plus the configured restarts) and commits the fit as the new warm start. */
  refit(): DirectPosterior {
    return this.commit((state, workspace) => {
      const fit = fitDirectQ(state, workspace);
      adoptDirectFit(state, fit);
      return evaluateDirectPosterior(state.grid, workspace, fit);
    });
  }

  /** Exact predictive mean (eq. 9), latent variance and variance of y at one record (checked like `predict`). */
  moments(x: Float64Array, offset = 0): DirectPredictiveMoments {
    checkFeatures(x, offset, this.state.dim, this.maxAbsInput);
    return directRecordMoments(this.state, this.workspace, x, offset);
  }

  /** Draws w ~ q as packed integer codes (4-bit when m̄ ≤ 16) with their decoder; for a mixture, a component k ~ π first, then w ~ q_k. */
  sampleCodes(rng: Rng): QuantizedWeights {
    return drawMixtureCodes(this.posterior().components, this.state.grid, rng);
  }
}

/**
 * `direct`: DIRECT generalized linear regression (Evans & Nair §3.1): discrete priors on the weights
 * and the noise variance, a mean-field categorical q (or a mixture of r, §4) fitted by L-BFGS on the
 * exact ELBO of Theorem 1, eq. (8), computed from ΦᵀΦ, Φᵀy, yᵀy and n alone.
 */
export const directFamily: Family<DirectOptions, DirectModel> = defineFamily({
  id: 'direct',
  summary: 'DIRECT regression: discrete priors, mean-field categorical q, exact ELBO from streaming, mergeable statistics (Evans & Nair, Theorem 1)',
  semantics: 'keeps ΦᵀΦ, Φᵀy, yᵀy and n (O(b²) per record); q is fitted from them when the posterior is read (cached, warm-started from the last committed fit), or inside update every refitEvery records, or on refit(); '
    + 'with refitEvery 0 (the default) a stream cut anywhere gives the same state, with refitEvery > 0 the fits happen at batch ends, so batching is declared dependent; merge adds the statistics (exact); forget scales them',
  task: 'regression', batching: 'dependent', weights: true,
  options: DIRECT_OPTION_DOCS,
  create: (dim, options) => createDirectState(dim, options),
  optionsOf: (state) => ({ grid: state.grid, features: state.features, ...state.settings }),
  workspace: (state) => createDirectWorkspace(state),
  reset(workspace) {
    workspace.posterior = undefined;
  },
  recordsSeen: (state) => state.stats.records,
  isFinite: directStateIsFinite,
  step: directStep,
  /** Gaussian with the exact predictive mean and variance (the true predictive is a finite Gaussian mixture; logProb is the moment-matched one). */
  predict(state, workspace, x, offset) {
    const m = directRecordMoments(state, workspace, x, offset);
    return new GaussianPredictive(m.mean, m.variance);
  },
  sample: (state, workspace, rng, out = new Float64Array(state.grid.b)) => drawMixtureCodes(directPosterior(state, workspace).components, state.grid, rng).decode(out),
  /** The ELBO of Theorem 1 (eq. 8) with every constant (for a mixture, the Theorem-3 lower bound of it), at the fitted q. */
  evidenceBound: (state, workspace) => directPosterior(state, workspace).elbo,
  posteriorMean: (state, workspace) => directPosterior(state, workspace).mean.slice(),
  posteriorSummary(state, workspace) {
    const p = directPosterior(state, workspace);
    let norm = 0;
    let traceCovariance = 0;
    for (let j = 0; j < p.mean.length; j++) { norm += p.mean[j] * p.mean[j]; traceCovariance += p.variance[j]; }
    return { meanNorm: Math.sqrt(norm), traceCovariance, effectiveDataSize: state.stats.n };
  },
  codec: directCodec,
  /** Adds the other model's statistics: exactly the model fed both streams; this model's logits stay the warm start. */
  merge: {
    exact: true,
    key: (state) => ({ grid: state.grid, features: state.features === undefined ? null : { omega: state.features.omega, lengthscales: state.features.lengthscales } }),
    apply(a, b) {
      const s = a.stats;
      for (let i = 0; i < s.gram.length; i++) s.gram[i] += b.stats.gram[i];
      for (let i = 0; i < s.b; i++) s.phiTy[i] += b.stats.phiTy[i];
      s.yty += b.stats.yty;
      s.n += b.stats.n;
      s.records += b.stats.records;
      a.sinceFit += b.stats.records;
      a.stale = true;
    },
  },
  /** Power prior: scales the statistics by `factor`, so old records count less. */
  forget(state, factor) {
    const s = state.stats;
    for (let i = 0; i < s.gram.length; i++) s.gram[i] *= factor;
    for (let i = 0; i < s.b; i++) s.phiTy[i] *= factor;
    s.yty *= factor;
    s.n *= factor;
    state.stale = true;
  },
}, DirectModel);
