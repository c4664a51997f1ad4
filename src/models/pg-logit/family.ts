import type { Batch } from '../../core/batch.js';
import { checkFeatures } from '../../core/check-features.js';
import { defineFamily } from '../../core/define-family.js';
import type { Family } from '../../core/family.js';
import { ModelShell } from '../../core/model-shell.js';
import type { OnlineModel } from '../../core/online-model.js';
import type { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { signedLabels } from '../../core/signed-labels.js';
import { inputErrorOf } from '../../core/validate-batch.js';
import { jaakkolaJordanXi } from '../../likelihoods/jaakkola-jordan-xi.js';
import { choleskyInverse } from '../../linalg/cholesky-inverse.js';
import { dot } from '../../linalg/dot.js';
import { logDetCholesky } from '../../linalg/log-det-cholesky.js';
import { solveLower } from '../../linalg/solve-lower.js';
import { solveLowerTransposed } from '../../linalg/solve-lower-transposed.js';
import { pgLogitCodec } from './codec.js';
import { pgLogitElbo } from './objective.js';
import { PG_LOGIT_OPTION_DOCS, type PgLogitOptions, type PgLogitUpdateMode } from './options.js';
import { predictPgLogit, type PgLogitPredictor } from './predict.js';
import { refreshMoments } from './refresh-moments.js';
import { createPgLogitState, type PgLogitState } from './state.js';
import { pgLogitStep } from './step.js';
import { pgLogitWorkspace, type PgLogitWorkspace } from './workspace.js';

/** Σ = (−2λ₂)⁻¹ from the Cholesky factor of −2λ₂ (O(d³)). */
function covarianceOf(state: PgLogitState): Float64Array {
  const d = state.dim;
  const cov = new Float64Array(d * d);
  choleskyInverse(state.factor, d, cov);
  return cov;
}

/** A pg-logit model: the shell plus the natural parameters, Σ, the local ξ, the ELBO on a batch and a choice of predictor. */
export class PgLogitModel extends ModelShell<PgLogitOptions, PgLogitState, PgLogitWorkspace, BernoulliPredictive> {
  declare readonly merge: (other: OnlineModel) => void;
  declare readonly forget: (factor: number) => void;

  get mode(): PgLogitUpdateMode {
    return this.state.settings.mode;
  }

  /** ELBO of the last `sda` update (relative to the prior it started from; NaN after an SVI step), its CAVI sweeps, and the SVI step count t. */
  get diagnostics(): { elbo: number; iterations: number; step: number } {
    return { elbo: this.state.elbo, iterations: this.state.iterations, step: this.state.step };
  }

  /** Copies of λ₁ = Σ⁻¹μ and λ₂ = −½Σ⁻¹. */
  naturalParameters(): { lambda1: Float64Array; lambda2: Float64Array } {
    return { lambda1: this.state.shift.slice(), lambda2: this.state.precision.map((v) => -0.5 * v) };
  }

  /** Σ = (−2λ₂)⁻¹, formed from the Cholesky factor (O(d³); for reporting, not a hot path). */
  covariance(): Float64Array {
    return covarianceOf(this.state);
  }

  /** The optimal local parameter ξ = √(xᵀΣx + (xᵀμ)²) of a record against the current q(β) (Algorithm 2). */
  localXi(x: Float64Array, offset = 0): number {
    checkFeatures(x, offset, this.state.dim, this.maxAbsInput);
    const d = this.state.dim;
    const work = this.workspace.work;
    for (let j = 0; j < d; j++) work[j] = x[offset + j];
    solveLower(this.state.factor, d, work, work);
    return jaakkolaJordanXi(dot(this.state.mean, x, d, 0, offset), dot(work, work, d));
  }

  /**
   * The ELBO (eq. 2.3, exact for the augmented model) of the current q(β) on a batch under the
   * model's prior, at the optimal ξ: for a fixed dataset, what CAVI maximises. O(nd² + d³).
   */
  elbo(batch: Batch): number {
    const problems = this.validate(batch);
    if (problems.length > 0) throw inputErrorOf(problems);
    const y = signedLabels(batch, new Float64Array(batch.n));
    return pgLogitElbo(this.state.prior, this.state.factor, this.state.mean, this.state.dim, batch.x, y, batch.n, undefined, batch.weights);
  }

  /** p(y = 1 | x) under q(β): `exact` E[σ(xᵀβ)] (default) or the `probit` approximation; carries the logit's mean and variance. */
  override predict(x: Float64Array, offset = 0, predictor: PgLogitPredictor = 'exact'): BernoulliPredictive {
    checkFeatures(x, offset, this.state.dim, this.maxAbsInput);
    return predictPgLogit(this.state.factor, this.state.mean, this.state.dim, x, offset, predictor, this.workspace.work);
  }
}

/**
 * `pg-logit`: Bayesian logistic regression by Pólya-gamma mean-field VB (Durante & Rigon 2019):
 * q(β) = N(μ, Σ) held in natural parameters λ₁ = Σ⁻¹μ, λ₂ = −½Σ⁻¹ with the Cholesky factor of −2λ₂.
 * Labels 0/1 or ±1, optional record weights.
 */
export const pgLogitFamily: Family<PgLogitOptions, PgLogitModel> = defineFamily({
  id: 'pg-logit',
  summary: 'Pólya-gamma mean-field VB for logistic regression (Durante & Rigon 2019): CAVI per batch (streaming VB) or SVI steps with effective data size N',
  semantics: 'sda: CAVI (Algorithm 2) on the last `replay` records (default 2000), their local ξ re-optimised by every update; a record leaving them is frozen into the natural parameters as the second-order expansion of its re-optimised site; with `replay` at least the records seen, any batching ends at the one-batch CAVI fixed point; with `replay` 0 streaming VB (each batch fitted once with the current posterior as prior, its sites frozen at their ξ); svi: one step of Algorithm 3 per batch, the posterior representing N records; merge (sda only) adds natural-parameter deltas from the common prior (SDA-Bayes); forget pulls λ toward the prior (the replayed records\' weights scaled alike)',
  task: 'classification', batching: 'dependent', weights: true,
  options: PG_LOGIT_OPTION_DOCS,
  create: (dim, options) => createPgLogitState(dim, options),
  optionsOf: (state) => {
    const { mode, tol, relativeTol, maxIter, tau, kappa, effectiveSize, replay } = state.settings;
    return {
      mode, prior: { mean: state.prior.mean.slice(), covariance: state.prior.covariance.slice() }, maxIter, tau, kappa,
      ...(relativeTol ? { tol } : {}), ...(mode === 'svi' ? { effectiveSize } : { replay }),
    };
  },
  workspace: (state) => pgLogitWorkspace(state.dim),
  recordsSeen: (state) => state.records,
  step: pgLogitStep,
  predict: (state, workspace, x, offset) => predictPgLogit(state.factor, state.mean, state.dim, x, offset, 'exact', workspace.work),
  /** β = μ + L⁻ᵀz with z ~ N(0, I), L the Cholesky factor of Σ⁻¹ (so Cov β = Σ). */
  sample(state, workspace, rng, out = new Float64Array(state.dim)) {
    const d = state.dim;
    const work = workspace.work;
    for (let j = 0; j < d; j++) work[j] = rng.normal();
    solveLowerTransposed(state.factor, d, work, work);
    for (let j = 0; j < d; j++) out[j] = state.mean[j] + work[j];
    return out;
  },
  posteriorMean: (state) => state.mean.slice(),
  /** ‖μ‖, ln|Σ|, Tr Σ, and the records represented: N in `svi` mode, the (forgetting-scaled) count in `sda` mode. */
  posteriorSummary(state) {
    const d = state.dim;
    const cov = covarianceOf(state);
    let traceCovariance = 0;
    for (let i = 0; i < d; i++) traceCovariance += cov[i * d + i];
    return {
      meanNorm: Math.sqrt(dot(state.mean, state.mean, d)),
      logDetCovariance: -logDetCholesky(state.factor, d),
      traceCovariance,
      effectiveDataSize: state.settings.mode === 'svi' ? state.settings.effectiveSize : state.records,
    };
  },
  codec: pgLogitCodec,
  /**
   * SDA-Bayes merge (Broderick et al. 2013): λ = λ_A + λ_B − λ₀ for two `sda` models with the same
   * prior fed disjoint streams. λ₁ (the part conjugate in the augmented space) is exactly the one
   * model fed both while neither has frozen a record as a second-order site (`replay` 0, or every record
   * still replayed); λ₂ keeps each side's own z̄, so this is the SDA-Bayes approximation, not the batch
   * posterior. The other model's delta joins the base (its replayed sites frozen at their ξ); this
   * model's window stays replayed. An `svi` posterior represents a window of N records and is not additive: refused.
   */
  merge: {
    exact: false,
    key: (state) => ({ prior: { mean: state.prior.mean, precision: state.prior.precision } }),
    refuse: (state) => (state.settings.mode === 'sda' ? undefined : 'only sda models merge: an svi posterior represents a window of N records, not additive evidence'),
    apply(a, b) {
      for (let i = 0; i < a.dim; i++) {
        a.shift[i] = a.shift[i] + b.shift[i] - a.prior.shift[i];
        a.baseShift[i] = a.baseShift[i] + b.shift[i] - a.prior.shift[i];
      }
      for (let i = 0; i < a.precision.length; i++) {
        a.precision[i] = a.precision[i] + b.precision[i] - a.prior.precision[i];
        a.basePrecision[i] = a.basePrecision[i] + b.precision[i] - a.prior.precision[i];
      }
      refreshMoments(a.shift, a.precision, a.dim, a.factor, a.mean);
      a.records += b.records;
    },
  },
  /**
   * Power prior: λ ← γλ + (1 − γ)λ₀ on both natural parameters, q's and the base's, and the replayed
   * records' weights scaled by γ (so q stays the base plus the window's sites); the records represented scale by γ.
   */
  forget(state, factor) {
    for (let i = 0; i < state.dim; i++) {
      state.shift[i] = factor * state.shift[i] + (1 - factor) * state.prior.shift[i];
      state.baseShift[i] = factor * state.baseShift[i] + (1 - factor) * state.prior.shift[i];
    }
    for (let i = 0; i < state.precision.length; i++) {
      state.precision[i] = factor * state.precision[i] + (1 - factor) * state.prior.precision[i];
      state.basePrecision[i] = factor * state.basePrecision[i] + (1 - factor) * state.prior.precision[i];
    }
    for (let r = 0; r < state.sites.count; r++) state.sites.weights[r] *= factor;
    refreshMoments(state.shift, state.precision, state.dim, state.factor, state.mean);
    state.records *= factor;
  },
}, PgLogitModel);
