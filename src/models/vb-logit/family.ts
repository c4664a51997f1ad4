import { defineFamily } from '../../core/define-family.js';
import type { Family } from '../../core/family.js';
import type { FamilyDefinition } from '../../core/family-definition.js';
import { ModelShell } from '../../core/model-shell.js';
import type { OnlineModel } from '../../core/online-model.js';
import type { OptionDocs } from '../../core/option-docs.js';
import type { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import type { GaussianPosterior } from '../../gaussian/gaussian-posterior.js';
import { gaussianSummary } from '../../gaussian/gaussian-summary.js';
import { foldJaakkolaJordanSites } from '../../likelihoods/fold-jaakkola-jordan-sites.js';
import { vbLogitCodec } from './codec.js';
import { VB_LOGIT_ARD_OPTION_DOCS, VB_LOGIT_OPTION_DOCS, type VbLogitOptions } from './options.js';
import { predictVbLogitRow } from './predict.js';
import { vbLogitRowProbability } from './row-probability.js';
import { createVbLogitState, type VbLogitState } from './state.js';
import { vbLogitStep } from './step.js';
import { vbLogitWorkspace, type VbLogitWorkspace } from './workspace.js';

/** A vb-logit(-ard) model: the shell plus read-only views of q(w) and of the last update's diagnostics. */
export class VbLogitModel extends ModelShell<VbLogitOptions, VbLogitState, VbLogitWorkspace, BernoulliPredictive> {
  declare readonly merge: (other: OnlineModel) => void;
  declare readonly forget: (factor: number) => void;

  /** Current q(w) = N(w, V) with V⁻¹ and ln|V| (read-only view). */
  get posterior(): Readonly<GaussianPosterior> {
    return this.state.posterior;
  }

  /** E[α] (length 1, or d with ARD), the variational bound L̃ with constants, and the passes of the last update and why they stopped. */
  get diagnostics(): { expectedAlpha: Float64Array; bound: number; iterations: number; stopReason: VbLogitState['stopReason'] } {
    return { expectedAlpha: this.state.expectedAlpha.slice(), bound: this.state.bound, iterations: this.state.iterations, stopReason: this.state.stopReason };
  }
}

const NO_RECORDS = new Float64Array(0);

/** Re-solves q(α) ⇄ q(w) at the frozen ξ (a step with no records), after the data sums changed. */
function resolve(state: VbLogitState, workspace: VbLogitWorkspace): void {
  vbLogitStep(state, { x: NO_RECORDS, y: NO_RECORDS, n: 0, d: state.dim }, workspace);
}

function definition(id: 'vb-logit' | 'vb-logit-ard', ard: boolean, options: OptionDocs, summary: string): FamilyDefinition<VbLogitOptions, VbLogitState, VbLogitWorkspace, BernoulliPredictive> {
  return {
    id, summary, task: 'classification', batching: 'dependent', weights: true,
    semantics: 'each update runs the batch VB iteration on the last `replay` records (default 2000) with their local ξ re-optimised, older records entering through frozen natural-parameter sums (each the second-order expansion of its re-optimised site; streaming VB with a bounded replay): one batch holding all the data is the batch fit; with `replay` at least the records seen, any batching ends at the one-batch fixed point; with `replay` 0 each batch\'s ξ are optimised once and its sites frozen at them; merge adds the data sums (the other model\'s replayed sites frozen) and re-solves q(α) (SDA-Bayes); forget scales them and the replayed records\' weights',
    options,
    create: (dim, opts) => createVbLogitState(dim, ard, opts),
    optionsOf: (state) => ({ prior: { ...state.prior }, tol: state.tol, maxIter: state.maxIter, replay: state.replay, ...(state.fixedAlpha === undefined ? {} : { alpha: state.fixedAlpha }) }),
    workspace: (state) => vbLogitWorkspace(state.dim, state.ard),
    reset: (workspace) => workspace.sampler.invalidate(),
    recordsSeen: (state) => state.records,
    step: vbLogitStep,
    predict: (state, workspace, x, offset) => predictVbLogitRow(state.posterior, state.dim, x, offset, state, workspace.vx, workspace.row),
    probability: (state, workspace, x, offset) => vbLogitRowProbability(state.posterior, state.dim, x, offset, state, workspace.vx, workspace.row),
    sample: (state, workspace, rng, out) => workspace.sampler.sample(state.posterior, rng, out),
    /** L̃(Q, ξ) of eq. (47) (closed form eq. 61) with all constants, at the last update's q and ξ. */
    evidenceBound: (state) => state.bound,
    posteriorMean: (state) => state.posterior.w.slice(),
    posteriorSummary: (state) => gaussianSummary(state.posterior, state.dim, state.records),
    codec: vbLogitCodec(id),
    merge: {
      exact: false,
      key: (state) => ({ prior: state.prior, fixedAlpha: state.fixedAlpha }),
      /**
       * Adds the other model's data sums Λ, t and frozen bound terms, its replayed sites frozen at their ξ,
       * then re-solves q(α), q(w) (this model's window replayed): the SDA-Bayes combination, not the batch posterior.
       */
      apply(a, b, workspace) {
        for (let i = 0; i < a.dataPrecision.length; i++) a.dataPrecision[i] += b.dataPrecision[i];
        for (let i = 0; i < a.dim; i++) a.dataShift[i] += b.dataShift[i];
        a.frozenBound += b.frozenBound;
        if (workspace.rowScale.length < b.sites.count) workspace.rowScale = new Float64Array(b.sites.count);
        const target = { precision: a.dataPrecision, shift: a.dataShift, labelShift: false, rowScale: workspace.rowScale, bound: a.frozenBound };
        foldJaakkolaJordanSites(b.sites.x, b.sites.y, b.sites.weights, b.sites.xi, 0, b.sites.count, a.dim, target);
        a.frozenBound = target.bound;
        a.records += b.records;
        resolve(a, workspace);
      },
    },
    /** Power prior on the data: Λ, t, the frozen bound terms and the replayed records' weights are scaled by `factor`, then q(α), q(w) re-solved. */
    forget(state, factor, workspace) {
      for (let i = 0; i < state.dataPrecision.length; i++) state.dataPrecision[i] *= factor;
      for (let i = 0; i < state.dim; i++) state.dataShift[i] *= factor;
      state.frozenBound *= factor;
      for (let r = 0; r < state.sites.count; r++) state.sites.weights[r] *= factor;
      resolve(state, workspace);
    },
  };
}

/**
 * `vb-logit`: Bayesian logistic regression with the Jaakkola–Jordan bound and a Gamma hyperprior on
 * the weight precision (Drugowitsch §3), or a fixed α. Labels 0/1 or ±1, record weights honoured.
 */
export const vbLogitFamily: Family<VbLogitOptions, VbLogitModel> = defineFamily(definition('vb-logit', false, VB_LOGIT_OPTION_DOCS,
  'VB logistic regression, Jaakkola–Jordan bound, Gamma hyperprior on the weight precision (Drugowitsch §3); batch fit per update, streaming VB across updates'), VbLogitModel);

/** `vb-logit-ard`: Drugowitsch §3.4, one precision per weight. */
export const vbLogitArdFamily: Family<VbLogitOptions, VbLogitModel> = defineFamily(definition('vb-logit-ard', true, VB_LOGIT_ARD_OPTION_DOCS,
  'VB logistic regression with automatic relevance determination (Drugowitsch §3.4)'), VbLogitModel);
