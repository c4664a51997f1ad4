import type { Batch } from '../../core/batch.js';
import { defineFamily } from '../../core/define-family.js';
import type { Family } from '../../core/family.js';
import { ModelShell } from '../../core/model-shell.js';
import { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { inputErrorOf } from '../../core/validate-batch.js';
import type { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import type { Rng } from '../../rng/rng.js';
import { sigmoid } from '../../special/sigmoid.js';
import { drawCodes } from './draw-codes.js';
import { drawMixtureCodes } from './draw-mixture-codes.js';
import { directLogitBatch } from './logit-batch.js';
import { directLogitCodec } from './logit-codec.js';
import { directLogitMoments } from './logit-moments.js';
import { DIRECT_LOGIT_OPTION_DOCS, type DirectLogitOptions } from './logit-options.js';
import { createDirectLogitState, type DirectLogitState } from './logit-state.js';
import { directLogitStep } from './logit-step.js';
import { createDirectLogitWorkspace, type DirectLogitWorkspace } from './logit-workspace.js';
import { QuantizedWeights } from './quantized-weights.js';
import type { DirectGrid } from './state.js';
import { zeroAtomMass } from './zero-atom-mass.js';

/** Draws w ~ q as packed integer codes (4-bit when m̄ ≤ 16); for a mixture, a component k ~ π first, then w ~ q_k. */
function sampleCodes(state: DirectLogitState, workspace: DirectLogitWorkspace, rng: Rng): QuantizedWeights {
  const { b, mbar, support } = state.grid;
  const moments = directLogitMoments(state, workspace);
  if (state.settings.components > 1) return drawMixtureCodes(moments.components, state.grid, rng);
  return drawCodes(moments.q, b, mbar, rng, new QuantizedWeights(b, support, mbar));
}

/** A `direct-logit` model: the shell plus the grid, the feature map, q's marginals and the Theorem-2 bound on a data set. */
export class DirectLogitModel extends ModelShell<DirectLogitOptions, DirectLogitState, DirectLogitWorkspace, BernoulliPredictive> {
  get grid(): DirectGrid {
    return this.state.grid;
  }

  get featureMap(): RandomFourierFeatures | undefined {
    return this.state.features;
  }

  /** The Theorem-2 ELBO bound (for a mixture, with Theorem 3's entropy bound) on a whole data set (likelihood unscaled) at the current q; the batch is checked like an update's. */
  elboBound(batch: Batch): number {
    const problems = this.validate(batch);
    if (problems.length > 0) throw inputErrorOf(problems);
    const { phi, signs } = directLogitBatch(this.state, this.workspace, batch);
    const mixture = this.workspace.mixture;
    if (mixture !== undefined) return mixture.evaluate(this.state.logits, phi, signs, batch.n, 1, undefined, batch.weights);
    return this.workspace.bound.evaluate(this.state.logits, phi, signs, batch.n, 1, undefined, batch.weights);
  }

  /** q(w_j = w̄_jm), b×m̄ (for a mixture, Σ_k π_k q_k(w_j = w̄_jm)). */
  probs(): Float64Array {
    return directLogitMoments(this.state, this.workspace).q.slice();
  }

  /** Var_q(w_j): the diagonal of Cov_q(w) (diagonal under mean field, not for a mixture). */
  posteriorVariance(): Float64Array {
    return directLogitMoments(this.state, this.workspace).variance.slice();
  }

  /** Expected fraction of weights at the zero atom. */
  sparsity(): number {
    return zeroAtomMass(directLogitMoments(this.state, this.workspace).q, this.state.grid.support, this.state.grid.b);
  }

  /** Draws w ~ q as packed integer codes (4-bit when m̄ ≤ 16); for a mixture, a component first. */
  sampleCodes(rng: Rng): QuantizedWeights {
    return sampleCodes(this.state, this.workspace, rng);
  }
}

/**
 * `direct-logit`: DIRECT logistic regression (Evans & Nair §4, Theorem 2), Pr(y = 1 | w) = σ(φᵀw): a
 * mean-field categorical q over the discrete grid (or a mixture of r, with Theorem 3's entropy bound),
 * trained by minibatch stochastic gradients (Adam) on the Theorem-2 ELBO lower bound, whose cost grows
 * with n. Not additive, so no merge or forget.
 */
export const directLogitFamily: Family<DirectLogitOptions, DirectLogitModel> = defineFamily({
  id: 'direct-logit',
  summary: 'DIRECT logistic regression: discrete priors, mean-field categorical q (or a mixture, Theorem 3), minibatch stochastic gradients on the Theorem-2 ELBO bound (Evans & Nair)',
  semantics: 'each update takes stepsPerBatch Adam steps on its batch, the likelihood scaled by N/|batch|: where the stream is cut changes the posterior; no merge or forget (the optimiser state is not additive)',
  task: 'classification', batching: 'dependent', weights: true,
  options: DIRECT_LOGIT_OPTION_DOCS,
  create: (dim, options) => createDirectLogitState(dim, options),
  optionsOf: (state) => ({ grid: state.grid, features: state.features, ...state.settings }),
  workspace: (state) => createDirectLogitWorkspace(state),
  reset(workspace) {
    workspace.current = false;
  },
  recordsSeen: (state) => state.records,
  isFinite: (state) => Number.isFinite(state.records) && state.logits.every(Number.isFinite) && state.adam.m.every(Number.isFinite) && state.adam.v.every(Number.isFinite),
  step: directLogitStep,
  /**
   * p(y = 1 | x): the logit z = φᵀw has exact mean φᵀs and variance Σ φ_j² Var_q(w_j) under q (for a
   * mixture, by total variance: Σ_k π_k (Σ_j φ_j² Var_{q_k}(w_j) + (φᵀs_k)²) − (φᵀs)²); E_q σ(z) is
   * approximated by σ(μ/√(1 + πv/8)) (MacKay's probit approximation).
   */
  predict(state, workspace, x, offset) {
    const { mean, variance, components } = directLogitMoments(state, workspace);
    const features = state.features;
    let phi = x;
    let at = offset;
    if (features !== undefined) { features.map(x, offset, workspace.row); phi = workspace.row; at = 0; }
    const b = mean.length;
    let mu = 0;
    let v = 0;
    if (state.settings.components === 1) {
      for (let j = 0; j < b; j++) { const f = phi[at + j]; mu += f * mean[j]; v += f * f * variance[j]; }
    } else {
      let second = 0;
      for (let k = 0; k < components.weights.length; k++) {
        let muK = 0;
        let vK = 0;
        for (let j = 0; j < b; j++) { const f = phi[at + j]; muK += f * components.means[k * b + j]; vK += f * f * components.variances[k * b + j]; }
        mu += components.weights[k] * muK;
        second += components.weights[k] * (vK + muK * muK);
      }
      v = Math.max(0, second - mu * mu);
    }
    return new BernoulliPredictive(sigmoid(mu / Math.sqrt(1 + (Math.PI * v) / 8)), mu, v);
  },
  sample: (state, workspace, rng, out = new Float64Array(state.grid.b)) => sampleCodes(state, workspace, rng).decode(out),
  posteriorMean: (state, workspace) => directLogitMoments(state, workspace).mean.slice(),
  posteriorSummary(state, workspace) {
    const { mean, variance } = directLogitMoments(state, workspace);
    let norm = 0;
    let trace = 0;
    for (let j = 0; j < mean.length; j++) { norm += mean[j] ** 2; trace += variance[j]; }
    return { meanNorm: Math.sqrt(norm), traceCovariance: trace, effectiveDataSize: state.records };
  },
  codec: directLogitCodec,
}, DirectLogitModel);
