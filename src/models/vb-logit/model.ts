import type { Batch } from '../../core/batch.js';
import { ConfigError } from '../../core/config-error.js';
import { InputError } from '../../core/input-error.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import type { OnlineModel, PosteriorSummary, UpdateStats } from '../../core/online-model.js';
import { optionChecks } from '../../core/option-checks.js';
import type { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { ShapeError } from '../../core/shape-error.js';
import { signedLabels } from '../../core/signed-labels.js';
import { validateBatch } from '../../core/validate-batch.js';
import { identity } from '../../linalg/identity.js';
import type { Rng } from '../../rng/rng.js';
import { decodeVbLogit, encodeVbLogit } from './codec.js';
import { absorbVbLogitBatch } from './fit.js';
import { gaussianSummary } from '../../gaussian/gaussian-summary.js';
import { GaussianSampler } from '../../gaussian/gaussian-sampler.js';
import { JaakkolaJordanRow } from '../../likelihoods/jaakkola-jordan-row.js';
import { predictVbLogitRow } from './predict.js';
import { VB_LOGIT_DEFAULT_PRIOR, type VbLogitState } from './state.js';

/** Options of `vb-logit` / `vb-logit-ard`. Defaults follow VBLinLogit. */
export interface VbLogitOptions {
  readonly prior?: { readonly a0?: number; readonly b0?: number };
  /** Relative bound change that stops the VB passes; default 1e-5 (the reference). */
  readonly tol?: number;
  /** Maximum VB passes per update; default 500. */
  readonly maxIter?: number;
  /**
   * A fixed prior precision α instead of the Gamma hyperprior: prior N(0, I/α), no q(α) update, and
   * `bound` is the plain Jaakkola–Jordan bound (the `pg-logit` CAVI fixed point at that prior).
   * Not with ARD; `prior` is then unused.
   */
  readonly alpha?: number;
}

/**
 * Bayesian logistic regression with the Jaakkola–Jordan bound and a Gamma hyperprior on the weight
 * precision (Drugowitsch §3; ARD §3.4). Labels are 0/1 or ±1. `update(batch)` runs the batch VB
 * iteration on that batch with earlier batches entering through frozen natural-parameter sums, so
 * one batch holding all the data is exactly VBLinLogit's vb_logit_fit, and a stream of batches is
 * streaming VB (Broderick et al. 2013). `merge` adds the data sums of a model fed a disjoint stream
 * and re-solves q(α): the SDA-Bayes combination, not the batch posterior.
 */
export class VbLogitModel implements OnlineModel {
  private readonly sampler: GaussianSampler;
  private readonly row = new JaakkolaJordanRow();
  private readonly vx: Float64Array;
  private labels = new Float64Array(0);

  private constructor(readonly family: string, private state: VbLogitState) {
    this.sampler = new GaussianSampler(state.dim);
    this.vx = new Float64Array(state.dim);
  }

  static create(family: string, dim: number, ard: boolean, options: VbLogitOptions = {}): VbLogitModel {
    const d = optionChecks.dimension(dim);
    const prior = {
      a0: optionChecks.positive('prior.a0', options.prior?.a0, VB_LOGIT_DEFAULT_PRIOR.a0),
      b0: optionChecks.positive('prior.b0', options.prior?.b0, VB_LOGIT_DEFAULT_PRIOR.b0),
    };
    if (ard && options.alpha !== undefined) throw new ConfigError('a fixed alpha is not available with ARD', { field: 'alpha', value: options.alpha });
    const fixedAlpha = options.alpha === undefined ? undefined : optionChecks.positive('alpha', options.alpha, 1);
    const alpha0 = fixedAlpha ?? prior.a0 / prior.b0;
    return new VbLogitModel(family, {
      dim: d, ard, prior, fixedAlpha,
      tol: optionChecks.positive('tol', options.tol, 1e-5),
      maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 500),
      dataPrecision: new Float64Array(d * d), dataShift: new Float64Array(d), frozenBound: 0, records: 0,
      posterior: { w: new Float64Array(d), V: identity(d, 1 / alpha0), invV: identity(d, alpha0), logDetV: -d * Math.log(alpha0), q: 0 },
      expectedAlpha: new Float64Array(ard ? d : 1).fill(alpha0), bound: Number.NaN, iterations: 0, stopReason: 'converged',
    });
  }

  static restore(family: string, snapshot: ModelSnapshot): VbLogitModel {
    return new VbLogitModel(family, decodeVbLogit(family, snapshot));
  }

  get dim(): number {
    return this.state.dim;
  }

  get recordsSeen(): number {
    return this.state.records;
  }

  /** Current q(w) = N(w, V) with V⁻¹, ln|V| (read-only view). */
  get posterior(): VbLogitState['posterior'] {
    return this.state.posterior;
  }

  /** E[α] (length 1, or d with ARD) and the variational bound L̃ with constants, and the passes of the last update. */
  get diagnostics(): { expectedAlpha: Float64Array; bound: number; iterations: number; stopReason: VbLogitState['stopReason'] } {
    return { expectedAlpha: this.state.expectedAlpha.slice(), bound: this.state.bound, iterations: this.state.iterations, stopReason: this.state.stopReason };
  }

  update(batch: Batch): UpdateStats {
    validateBatch(batch, this.state.dim);
    if (this.labels.length < batch.n) this.labels = new Float64Array(batch.n);
    signedLabels(batch, this.labels);
    absorbVbLogitBatch(this.state, batch.x, this.labels, batch.n, batch.weights);
    this.sampler.invalidate();
    return { records: batch.n, objective: this.state.bound, iterations: this.state.iterations };
  }

  predict(x: Float64Array, offset = 0): BernoulliPredictive {
    return predictVbLogitRow(this.state.posterior, this.state.dim, x, offset, this.state, this.vx, this.row);
  }

  sample(rng: Rng, out?: Float64Array): Float64Array {
    return this.sampler.sample(this.state.posterior, rng, out);
  }

  posteriorMean(): Float64Array {
    return this.state.posterior.w.slice();
  }

  summary(): PosteriorSummary {
    return gaussianSummary(this.state.posterior, this.state.dim, this.state.records);
  }

  snapshot(): ModelSnapshot {
    return encodeVbLogit(this.family, this.state);
  }

  merge(other: OnlineModel): void {
    if (!(other instanceof VbLogitModel) || other.family !== this.family) {
      throw new ShapeError(`cannot merge a ${other.family} model into ${this.family}`, { field: 'family', value: other.family });
    }
    const a = this.state;
    const b = other.state;
    if (b.dim !== a.dim) throw new ShapeError(`cannot merge dimension ${b.dim} into ${a.dim}`, { field: 'dim', value: b.dim });
    if (b.prior.a0 !== a.prior.a0 || b.prior.b0 !== a.prior.b0 || b.fixedAlpha !== a.fixedAlpha) throw new ConfigError('cannot merge models with different priors', { field: 'prior' });
    const saved = encodeVbLogit(this.family, a);
    for (let i = 0; i < a.dataPrecision.length; i++) a.dataPrecision[i] += b.dataPrecision[i];
    for (let i = 0; i < a.dim; i++) a.dataShift[i] += b.dataShift[i];
    a.frozenBound += b.frozenBound;
    a.records += b.records;
    this.resolve(saved);
  }

  /** Power prior on the data sums: Λ, t and the frozen bound terms are scaled by `factor`, then q(α), q(w) re-solved. */
  forget(factor: number): void {
    if (!(factor > 0 && factor <= 1)) throw new InputError('forgetting factor must be in (0, 1]', { field: 'factor', value: factor });
    if (factor === 1) return;
    const s = this.state;
    const saved = encodeVbLogit(this.family, s);
    for (let i = 0; i < s.dataPrecision.length; i++) s.dataPrecision[i] *= factor;
    for (let i = 0; i < s.dim; i++) s.dataShift[i] *= factor;
    s.frozenBound *= factor;
    this.resolve(saved);
  }

  private resolve(saved: ModelSnapshot): void {
    try {
      absorbVbLogitBatch(this.state, new Float64Array(0), new Float64Array(0), 0);
    } catch (error) {
      this.state = decodeVbLogit(this.family, saved);
      throw error;
    }
    this.sampler.invalidate();
  }
}
