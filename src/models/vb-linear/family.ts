import { defineFamily } from '../../core/define-family.js';
import type { Family } from '../../core/family.js';
import type { FamilyDefinition } from '../../core/family-definition.js';
import { ModelShell } from '../../core/model-shell.js';
import type { OnlineModel } from '../../core/online-model.js';
import type { StudentTPredictive } from '../../core/predictive/student-t-predictive.js';
import { conditionNumber } from '../../linalg/condition-number.js';
import { dot } from '../../linalg/dot.js';
import { trace } from '../../linalg/trace.js';
import { sampleMultivariateNormal } from '../../rng/sample-multivariate-normal.js';
import { vbLinearCodec } from './codec.js';
import { VB_LINEAR_OPTION_DOCS, type VbLinearOptions } from './options.js';
import type { VbLinearPosterior } from './posterior.js';
import { predictVbLinear } from './predict.js';
import { createVbLinearState } from './create-state.js';
import type { VbLinearState } from './state.js';
import { refitVbLinear } from './refit.js';
import { vbLinearStep } from './step.js';
import { resetVbLinearWorkspace, vbLinearCovarianceFactor, vbLinearPosterior, vbLinearWorkspace, type VbLinearWorkspace } from './workspace.js';

/** A vb-linear(-ard) model: the shell plus the fitted posterior and the marginal covariance of w. */
export class VbLinearModel extends ModelShell<VbLinearOptions, VbLinearState, VbLinearWorkspace, StudentTPredictive> {
  declare readonly merge: (other: OnlineModel) => void;
  declare readonly forget: (factor: number) => void;

  /** The posterior (with V_N⁻¹, E[α] and the bound at the current q; cached until the next change). */
  posterior(): VbLinearPosterior {
    return vbLinearPosterior(this.state, this.workspace);
  }

  /**
   * Read-only view of q(w, τ) as the model holds it, without a copy: w | τ ~ N(w_N, V_N/τ),
   * τ ~ Gam(a_N, b_N) (eq. 6). Between refits only V_N's upper triangle is current.
   */
  get weightPosterior(): Readonly<Pick<VbLinearState, 'w' | 'V' | 'an' | 'bn'>> {
    return this.state;
  }

  /** Marginal posterior covariance of w, V_N·b_N/(a_N − 1) (defined for a_N > 1). */
  posteriorCovariance(): Float64Array {
    const { V, an, bn } = this.posterior();
    return V.map((v) => (v * bn) / (an - 1));
  }
}

function definition(id: 'vb-linear' | 'vb-linear-ard', ard: boolean, summary: string): FamilyDefinition<VbLinearOptions, VbLinearState, VbLinearWorkspace, StudentTPredictive> {
  return {
    id, summary, task: 'regression', batching: 'dependent', weights: true,
    semantics: 'keeps XᵀX, Xᵀy, yᵀy and N and the posterior: an update adds the batch to the statistics, then either refits the VB model (E[α] included, warm-started) when the records since the last refit reach `refitFraction`·N, or updates q(w, τ) record by record with E[α] held (exact for it, O(d²)); the first batch is the batch VB fit, and where the refits fall depends on the batching. merge adds the statistics and fits them from scratch (the batch VB fit of both streams); forget scales the statistics and refits',
    options: VB_LINEAR_OPTION_DOCS,
    create: (dim, options) => createVbLinearState(dim, ard, options),
    optionsOf: (state) => ({ prior: { ...state.prior }, tol: state.tol, maxIter: state.maxIter, refitFraction: state.refitFraction, ...(state.ard ? { pruneThreshold: state.pruneThreshold } : {}) }),
    workspace: vbLinearWorkspace,
    reset: resetVbLinearWorkspace,
    recordsSeen: (state) => state.records,
    /**
     * O(d): the scalars, Xᵀy, w_N and the diagonals of XᵀX and V_N. An entry of XᵀX overflows only
     * with a diagonal one (|x_i·x_j| ≤ max(x_i², x_j²)), and likewise an entry of V_N after a
     * rank-one update (its terms are u_i·u_j); a refit's V_N is non-finite on its diagonal first.
     */
    isFinite(state) {
      const { dim: d, xtx, xty, w, V } = state;
      if (!(Number.isFinite(state.yty) && Number.isFinite(state.n) && Number.isFinite(state.an) && Number.isFinite(state.bn) && Number.isFinite(state.logDetV))) return false;
      for (let i = 0; i < d; i++) {
        if (!Number.isFinite(xtx[i * d + i]) || !Number.isFinite(xty[i]) || !Number.isFinite(w[i]) || !Number.isFinite(V[i * d + i])) return false;
      }
      return true;
    },
    step: vbLinearStep,
    /** O(d²): the arrays and scalars a step writes. */
    copy(target, source) {
      target.xtx.set(source.xtx);
      target.xty.set(source.xty);
      target.w.set(source.w);
      target.V.set(source.V);
      target.alpha.set(source.alpha);
      target.pruned.set(source.pruned);
      target.yty = source.yty;
      target.n = source.n;
      target.records = source.records;
      target.logDetV = source.logDetV;
      target.an = source.an;
      target.bn = source.bn;
      target.iterations = source.iterations;
      target.stopReason = source.stopReason;
      target.warm = source.warm;
      target.sinceRefit = source.sinceRefit;
    },
    predict: predictVbLinear,
    /** Draws τ ~ Gam(a_N, b_N) then w ~ N(w_N, V_N/τ) (eq. 6) and returns w. */
    sample(state, workspace, rng, out = new Float64Array(state.dim)) {
      const posterior = vbLinearPosterior(state, workspace);
      const d = state.dim;
      const factor = vbLinearCovarianceFactor(state, workspace);
      const scale = 1 / Math.sqrt(rng.gamma(posterior.an, posterior.bn));
      sampleMultivariateNormal(rng, posterior.w, factor, d, out);
      for (let i = 0; i < d; i++) out[i] = posterior.w[i] + scale * (out[i] - posterior.w[i]);
      return out;
    },
    /** L(Q) of eq. (22) (eq. 33 with ARD) with all constants, at the current q. */
    evidenceBound: (state, workspace) => vbLinearPosterior(state, workspace).L,
    posteriorMean: (state) => state.w.slice(),
    posteriorSummary(state, workspace) {
      const { w, V, logDetV, an, bn, pruned } = vbLinearPosterior(state, workspace);
      const d = state.dim;
      const scale = bn / (an - 1);
      // Pruned weights are out of the model: the covariance figures are those of the kept ones.
      const kept = keptBlock(V, d, pruned);
      return {
        meanNorm: Math.sqrt(dot(w, w, d)),
        logDetCovariance: logDetV + kept.size * Math.log(scale),
        traceCovariance: trace(V, d) * scale,
        conditionNumber: kept.size === 0 ? 1 : conditionNumber(kept.matrix, kept.size),
        effectiveDataSize: state.n,
      };
    },
    codec: vbLinearCodec(id),
    /** Adds the other model's sufficient statistics and fits them from scratch: the batch VB fit of both streams (the reference's), which a model fed both streams in one batch holds too. */
    merge: {
      exact: false,
      key: (state) => ({ ard: state.ard, prior: state.prior }),
      apply(a, b) {
        for (let i = 0; i < a.xtx.length; i++) a.xtx[i] += b.xtx[i];
        for (let i = 0; i < a.dim; i++) a.xty[i] += b.xty[i];
        a.yty += b.yty;
        a.n += b.n;
        a.records += b.records;
        refitVbLinear(a, true);
      },
    },
    /** Power prior: scales the statistics by `factor`, so old records count less, and refits (factor 1 changes nothing). */
    forget(s, factor) {
      if (factor === 1) return;
      for (let i = 0; i < s.xtx.length; i++) s.xtx[i] *= factor;
      for (let i = 0; i < s.dim; i++) s.xty[i] *= factor;
      s.yty *= factor;
      s.n *= factor;
      refitVbLinear(s);
    },
  };
}

/** The rows and columns of `m` (d×d) of the weights not pruned. */
function keptBlock(m: Float64Array, d: number, pruned: Uint8Array): { matrix: Float64Array; size: number } {
  if (!pruned.includes(1)) return { matrix: m, size: d };
  const keep: number[] = [];
  for (let i = 0; i < d; i++) if (pruned[i] === 0) keep.push(i);
  const size = keep.length;
  const matrix = new Float64Array(size * size);
  for (let a = 0; a < size; a++) for (let b = 0; b < size; b++) matrix[a * size + b] = m[keep[a] * d + keep[b]];
  return { matrix, size };
}

/** `vb-linear`: Drugowitsch §2, one shrinkage precision α. */
export const vbLinearFamily: Family<VbLinearOptions, VbLinearModel> = defineFamily(definition('vb-linear', false,
  'VB linear regression, normal-inverse-gamma posterior, Gamma hyperprior on the weight precision (Drugowitsch §2); O(d²) per record between refits of E[α]'), VbLinearModel);

/** `vb-linear-ard`: Drugowitsch §2.4, one precision per weight (ARD). */
export const vbLinearArdFamily: Family<VbLinearOptions, VbLinearModel> = defineFamily(definition('vb-linear-ard', true,
  'VB linear regression with automatic relevance determination (Drugowitsch §2.4), pruning at the marginal-likelihood-optimal precision; O(d²) per record between refits'), VbLinearModel);
