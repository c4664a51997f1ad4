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
import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import { identity } from '../../linalg/identity.js';
import { spdInverse } from '../../linalg/spd-inverse.js';
import type { Rng } from '../../rng/rng.js';
import { gaussianSummary } from './gaussian-summary.js';
import { GaussianSampler } from './gaussian-sampler.js';
import { JaakkolaJordanRow } from './jaakkola-jordan-row.js';
import { decodeVbLogitOnline, encodeVbLogitOnline } from './online-codec.js';
import type { VbLogitOnlineState } from './online-state.js';
import { onlineVbLogitUpdate } from './online-update.js';
import { predictVbLogitRow } from './predict.js';

/** Options of `vb-logit-online`. */
export interface VbLogitOnlineOptions {
  /** Precision of the prior N(0, I/priorPrecision); default d, as VBLinLogit (eq. 81). */
  readonly priorPrecision?: number;
  /** Per-record relative bound change that stops the ξ iteration; default 1e-5 (the reference). */
  readonly tol?: number;
  /** Maximum ξ steps per record; default 500. */
  readonly maxIter?: number;
}

/**
 * Online VB logistic regression, one record at a time with its own ξ (Drugowitsch §3.5.1,
 * VBLinLogit vb_logit_fit_iter): O(d²) per record, independent of how many came before, and order
 * dependent by nature. Labels 0/1 or ±1; record weights are not supported (an update with weights
 * throws). `merge` and `forget` act on the natural parameters (V⁻¹, V⁻¹w) relative to the prior:
 * the SDA-Bayes combination of Broderick et al. 2013.
 */
export class VbLogitOnlineModel implements OnlineModel {
  readonly family = 'vb-logit-online';
  private readonly sampler: GaussianSampler;
  private readonly row = new JaakkolaJordanRow();
  private readonly vx: Float64Array;
  private labels = new Float64Array(0);
  private backup: Float64Array | undefined;

  private constructor(private readonly state: VbLogitOnlineState) {
    this.sampler = new GaussianSampler(state.dim);
    this.vx = new Float64Array(state.dim);
  }

  static create(dim: number, options: VbLogitOnlineOptions = {}): VbLogitOnlineModel {
    const d = optionChecks.dimension(dim);
    const priorPrecision = optionChecks.positive('priorPrecision', options.priorPrecision, d);
    return new VbLogitOnlineModel({
      dim: d, priorPrecision,
      tol: optionChecks.positive('tol', options.tol, 1e-5),
      maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 500),
      records: 0,
      posterior: { w: new Float64Array(d), V: identity(d, 1 / priorPrecision), invV: identity(d, priorPrecision), logdetV: -d * Math.log(priorPrecision), q: 0 },
    });
  }

  static restore(snapshot: ModelSnapshot): VbLogitOnlineModel {
    return new VbLogitOnlineModel(decodeVbLogitOnline('vb-logit-online', snapshot));
  }

  get dim(): number {
    return this.state.dim;
  }

  get recordsSeen(): number {
    return this.state.records;
  }

  /** Current q(w) = N(w, V) with V⁻¹ and ln|V| (read-only view). */
  get posterior(): VbLogitOnlineState['posterior'] {
    return this.state.posterior;
  }

  /**
   * Absorbs the records in order. The batch is validated first; if a record fails numerically the
   * records of this batch already applied are rolled back, so the model is untouched.
   */
  update(batch: Batch): UpdateStats {
    validateBatch(batch, this.state.dim);
    if (batch.weights !== undefined && batch.weights.some((w, i) => i < batch.n && w !== 1)) {
      throw new InputError('vb-logit-online does not support record weights other than 1', { field: 'weights' });
    }
    if (this.labels.length < batch.n) this.labels = new Float64Array(batch.n);
    const y = signedLabels(batch, this.labels);
    if (batch.n > 1) this.saveBackup();
    let iterations = 0;
    const d = this.state.dim;
    for (let r = 0; r < batch.n; r++) {
      try {
        iterations += onlineVbLogitUpdate(this.state, batch.x, r * d, y[r], this.vx, this.row);
      } catch (error) {
        if (r > 0) this.restoreBackup(r);
        throw error;
      }
    }
    if (batch.n > 0) this.sampler.invalidate();
    return { records: batch.n, iterations };
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
    return encodeVbLogitOnline(this.family, this.state);
  }

  /** Natural-parameter merge from the common prior: V⁻¹ = V_A⁻¹ + V_B⁻¹ − V₀⁻¹, V⁻¹w = V_A⁻¹w_A + V_B⁻¹w_B. */
  merge(other: OnlineModel): void {
    if (!(other instanceof VbLogitOnlineModel)) throw new ShapeError(`cannot merge a ${other.family} model into ${this.family}`, { field: 'family', value: other.family });
    const a = this.state;
    const b = other.state;
    if (b.dim !== a.dim) throw new ShapeError(`cannot merge dimension ${b.dim} into ${a.dim}`, { field: 'dim', value: b.dim });
    if (b.priorPrecision !== a.priorPrecision) throw new ConfigError('cannot merge models with different priors', { field: 'priorPrecision' });
    const d = a.dim;
    const precision = a.posterior.invV.slice();
    for (let i = 0; i < d * d; i++) precision[i] += b.posterior.invV[i];
    for (let i = 0; i < d; i++) precision[i * d + i] -= a.priorPrecision;
    const shift = this.naturalShift();
    const otherShift = other.naturalShift();
    for (let i = 0; i < d; i++) shift[i] += otherShift[i];
    this.setNatural(precision, shift);
    a.records += b.records;
  }

  /** Power prior: V⁻¹ ← γV⁻¹ + (1 − γ)V₀⁻¹ and V⁻¹w ← γV⁻¹w, then V, w, ln|V| recomputed (O(d³)). */
  forget(factor: number): void {
    if (!(factor > 0 && factor <= 1)) throw new InputError('forgetting factor must be in (0, 1]', { field: 'factor', value: factor });
    if (factor === 1) return;
    const d = this.state.dim;
    const precision = this.state.posterior.invV.map((v) => v * factor);
    for (let i = 0; i < d; i++) precision[i * d + i] += (1 - factor) * this.state.priorPrecision;
    const shift = this.naturalShift().map((v) => v * factor);
    this.setNatural(precision, shift);
  }

  private naturalShift(): Float64Array {
    const d = this.state.dim;
    const shift = new Float64Array(d);
    gemv(this.state.posterior.invV, d, d, this.state.posterior.w, shift);
    return shift;
  }

  private setNatural(precision: Float64Array, shift: Float64Array): void {
    const d = this.state.dim;
    const V = new Float64Array(d * d);
    const logdetPrecision = spdInverse(precision, d, V, new Float64Array(d * d), { what: 'merged posterior precision' });
    const p = this.state.posterior;
    p.invV.set(precision);
    p.V.set(V);
    gemv(V, d, d, shift, p.w);
    p.logdetV = -logdetPrecision;
    p.q = dot(p.w, shift, d);
    this.sampler.invalidate();
  }

  private saveBackup(): void {
    const d = this.state.dim;
    const size = 2 * d * d + d + 3;
    if (this.backup === undefined) this.backup = new Float64Array(size);
    const p = this.state.posterior;
    this.backup.set(p.w, 0);
    this.backup.set(p.V, d);
    this.backup.set(p.invV, d + d * d);
    this.backup[size - 3] = p.logdetV;
    this.backup[size - 2] = p.q;
    this.backup[size - 1] = this.state.records;
  }

  private restoreBackup(applied: number): void {
    const d = this.state.dim;
    const b = this.backup as Float64Array;
    const p = this.state.posterior;
    p.w.set(b.subarray(0, d));
    p.V.set(b.subarray(d, d + d * d));
    p.invV.set(b.subarray(d + d * d, d + 2 * d * d));
    p.logdetV = b[b.length - 3];
    p.q = b[b.length - 2];
    this.state.records -= applied;
  }
}
