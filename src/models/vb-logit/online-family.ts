import { defineFamily } from '../../core/define-family.js';
import type { Family } from '../../core/family.js';
import { ModelShell } from '../../core/model-shell.js';
import type { OnlineModel } from '../../core/online-model.js';
import type { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import type { GaussianPosterior } from '../../gaussian/gaussian-posterior.js';
import { gaussianSummary } from '../../gaussian/gaussian-summary.js';
import { vbLogitOnlineCodec } from './online-codec.js';
import { naturalShift, setNaturalParameters } from './online-natural-parameters.js';
import { VB_LOGIT_ONLINE_OPTION_DOCS, type VbLogitOnlineOptions } from './online-options.js';
import { createVbLogitOnlineState, type VbLogitOnlineState } from './online-state.js';
import { vbLogitOnlineStep } from './online-step.js';
import { vbLogitOnlineWorkspace, type VbLogitOnlineWorkspace } from './online-workspace.js';
import { predictVbLogitRow } from './predict.js';

/** A vb-logit-online model: the shell plus a read-only view of q(w). */
export class VbLogitOnlineModel extends ModelShell<VbLogitOnlineOptions, VbLogitOnlineState, VbLogitOnlineWorkspace, BernoulliPredictive> {
  declare readonly merge: (other: OnlineModel) => void;
  declare readonly forget: (factor: number) => void;

  /** Current q(w) = N(w, V) with V⁻¹ and ln|V| (read-only view). */
  get posterior(): Readonly<GaussianPosterior> {
    return this.state.posterior;
  }
}

/**
 * `vb-logit-online`: online VB logistic regression, one record at a time with its own ξ (Drugowitsch
 * §3.5.1, VBLinLogit vb_logit_fit_iter): O(d²) per record, independent of how many came before, and
 * order dependent by nature. Labels 0/1 or ±1; no record weights. `merge` and `forget` act on the
 * natural parameters (V⁻¹, V⁻¹w) relative to the prior: the SDA-Bayes combination of Broderick et al. 2013.
 */
export const vbLogitOnlineFamily: Family<VbLogitOnlineOptions, VbLogitOnlineModel> = defineFamily({
  id: 'vb-logit-online',
  summary: 'Online VB logistic regression: per-record ξ and Sherman–Morrison updates in O(d²) (Drugowitsch §3.5.1)',
  semantics: 'one Sherman–Morrison update per record with that record\'s own ξ, in order: any batching gives the same posterior; order-dependent by nature; merge/forget act on the natural parameters (SDA-Bayes)',
  task: 'classification', batching: 'invariant', weights: false,
  options: VB_LOGIT_ONLINE_OPTION_DOCS,
  create: (dim, options) => createVbLogitOnlineState(dim, options),
  optionsOf: (state) => ({ priorPrecision: state.priorPrecision, tol: state.tol, maxIter: state.maxIter }),
  workspace: (state) => vbLogitOnlineWorkspace(state.dim),
  reset: (workspace) => workspace.sampler.invalidate(),
  recordsSeen: (state) => state.records,
  step: vbLogitOnlineStep,
  predict: (state, workspace, x, offset) => predictVbLogitRow(state.posterior, state.dim, x, offset, state, workspace.vx, workspace.row),
  sample: (state, workspace, rng, out) => workspace.sampler.sample(state.posterior, rng, out),
  posteriorMean: (state) => state.posterior.w.slice(),
  posteriorSummary: (state) => gaussianSummary(state.posterior, state.dim, state.records),
  codec: vbLogitOnlineCodec,
  /**
   * O(d): w, the scalars and the diagonals of V and V⁻¹. Both matrices are positive semi-definite and
   * change by rank-one terms, so |A_ij| ≤ √(A_ii·A_jj) and |u_i·u_j| ≤ max(u_i², u_j²): an off-diagonal
   * entry cannot overflow or turn NaN while every diagonal entry stays finite.
   */
  copy(target, source) {
    const into = target.posterior;
    const from = source.posterior;
    into.w.set(from.w);
    into.V.set(from.V);
    into.invV.set(from.invV);
    into.logDetV = from.logDetV;
    into.q = from.q;
    target.records = source.records;
  },
  isFinite(state) {
    const { w, V, invV, logDetV, q } = state.posterior;
    const d = state.dim;
    if (!Number.isFinite(logDetV) || !Number.isFinite(q)) return false;
    for (let i = 0; i < d; i++) {
      if (!Number.isFinite(w[i]) || !Number.isFinite(V[i * d + i]) || !Number.isFinite(invV[i * d + i])) return false;
    }
    return true;
  },
  merge: {
    exact: false,
    key: (state) => state.priorPrecision,
    /** Natural-parameter merge from the common prior: V⁻¹ = V_A⁻¹ + V_B⁻¹ − V₀⁻¹, V⁻¹w = V_A⁻¹w_A + V_B⁻¹w_B. */
    apply(a, b) {
      const d = a.dim;
      const precision = a.posterior.invV.slice();
      for (let i = 0; i < d * d; i++) precision[i] += b.posterior.invV[i];
      for (let i = 0; i < d; i++) precision[i * d + i] -= a.priorPrecision;
      const shift = naturalShift(a);
      const otherShift = naturalShift(b);
      for (let i = 0; i < d; i++) shift[i] += otherShift[i];
      setNaturalParameters(a, precision, shift);
      a.records += b.records;
    },
  },
  /** Power prior: V⁻¹ ← γV⁻¹ + (1 − γ)V₀⁻¹ and V⁻¹w ← γV⁻¹w, then V, w, ln|V| recomputed (O(d³)). */
  forget(state, factor) {
    const d = state.dim;
    const precision = state.posterior.invV.map((v) => v * factor);
    for (let i = 0; i < d; i++) precision[i * d + i] += (1 - factor) * state.priorPrecision;
    setNaturalParameters(state, precision, naturalShift(state).map((v) => v * factor));
  },
}, VbLogitOnlineModel);
