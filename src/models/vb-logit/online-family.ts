import { defineFamily } from '../../core/define-family.js';
import type { Family } from '../../core/family.js';
import { ModelShell } from '../../core/model-shell.js';
import type { OnlineModel } from '../../core/online-model.js';
import type { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import type { GaussianPosterior } from '../../gaussian/gaussian-posterior.js';
import { gaussianSummary } from '../../gaussian/gaussian-summary.js';
import { vbLogitOnlineCodec } from './online-codec.js';
import { ForgettingBank } from '../../forgetting/forgetting-bank.js';
import { adaptiveForgettingOptionsOf } from '../../forgetting/adaptive-forgetting-options-of.js';
import { resolveAdaptiveForgetting } from '../../forgetting/resolve-adaptive-forgetting.js';
import { naturalShift, setNaturalParameters } from './online-natural-parameters.js';
import { vbLogitOnlineMemberOps } from './online-member-ops.js';
import { VB_LOGIT_ONLINE_OPTION_DOCS, type VbLogitOnlineOptions } from './online-options.js';
import { createVbLogitOnlineState, type VbLogitOnlineState } from './online-state.js';
import { vbLogitOnlineStep } from './online-step.js';
import { vbLogitOnlineWorkspace, type VbLogitOnlineWorkspace } from './online-workspace.js';
import { predictVbLogitRow } from './predict.js';
import { vbLogitRowProbability } from './row-probability.js';

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
  semantics: 'one Sherman–Morrison update per record with that record\'s own ξ, in order: any batching gives the same posterior; order-dependent by nature; merge/forget act on the natural parameters (SDA-Bayes); forgets adaptively by default (`forgetting`: a posterior per candidate factor, the one of most prequential evidence leads; forgetting steps counted in records, so any batching still gives the same posterior); merge combines the leading posteriors and restarts every candidate from the result, with no evidence',
  task: 'classification', batching: 'invariant', weights: false,
  options: VB_LOGIT_ONLINE_OPTION_DOCS,
  create(dim, options) {
    const state = createVbLogitOnlineState(dim, options);
    const forgetting = resolveAdaptiveForgetting(options, 'adaptive');
    if (forgetting !== undefined) state.forgetting = ForgettingBank.of(vbLogitOnlineMemberOps, forgetting.factors, forgetting.every, false, state);
    return state;
  },
  optionsOf: (state) => ({
    priorPrecision: state.priorPrecision, tol: state.tol, maxIter: state.maxIter,
    ...adaptiveForgettingOptionsOf(state.forgetting),
  }),
  workspace: (state) => vbLogitOnlineWorkspace(state.dim),
  reset: (workspace) => workspace.sampler.invalidate(),
  recordsSeen: (state) => state.records,
  step: vbLogitOnlineStep,
  predict: (state, workspace, x, offset) => predictVbLogitRow(state.posterior, state.dim, x, offset, state, workspace.vx, workspace.row),
  probability: (state, workspace, x, offset) => vbLogitRowProbability(state.posterior, state.dim, x, offset, state, workspace.vx, workspace.row),
  sample: (state, workspace, rng, out) => workspace.sampler.sample(state.posterior, rng, out),
  posteriorMean: (state) => state.posterior.w.slice(),
  posteriorSummary: (state) => gaussianSummary(state.posterior, state.dim, state.records),
  codec: vbLogitOnlineCodec,
  copy(target, source) {
    vbLogitOnlineMemberOps.copy(target, source);
    if (target.forgetting !== undefined) target.forgetting.copyFrom(source.forgetting!);
  },
  isFinite: (state) => vbLogitOnlineMemberOps.isFinite(state) && (state.forgetting?.isFinite() ?? true),
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
      a.forgetting?.restartFrom(a);
    },
  },
  /** Power prior on every candidate's posterior (see {@link vbLogitOnlineMemberOps}). */
  forget(state, factor) {
    if (state.forgetting === undefined) vbLogitOnlineMemberOps.forget(state, factor);
    else state.forgetting.forgetAll(state, factor);
  },
}, VbLogitOnlineModel);
