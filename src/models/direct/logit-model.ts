import type { Batch } from '../../core/batch.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import type { OnlineModel, PosteriorSummary, UpdateStats } from '../../core/online-model.js';
import { optionChecks } from '../../core/option-checks.js';
import { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { signedLabels } from '../../core/signed-labels.js';
import { validateBatch } from '../../core/validate-batch.js';
import type { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import { Adam } from '../../optim/adam.js';
import type { Rng } from '../../rng/rng.js';
import { sigmoid } from '../../special/sigmoid.js';
import { drawCodes } from './draw-codes.js';
import { rffFromOptions, type RffOptions } from './feature-options.js';
import { buildDirectGrid, type DirectGridOptions } from './grid.js';
import { decodeDirectLogit, encodeDirectLogit, type DirectLogitState } from './logit-codec.js';
import { DirectLogisticBound } from './logistic-bound.js';
import { QuantizedWeights } from './quantized-weights.js';
import { softmaxRows } from './softmax-rows.js';
import type { DirectGrid } from './state.js';

/** Options of `direct-logit`. */
export interface DirectLogitOptions extends Omit<DirectGridOptions, 'noiseSupport' | 'noisePriorProbs'> {
  /** Adam step size on the logits (default 0.05). */
  readonly learningRate?: number;
  /** Adam steps per `update` (default 1). */
  readonly stepsPerBatch?: number;
  /** N in the minibatch scale N/|batch| (default 0: the records seen so far, this batch included). */
  readonly dataSize?: number;
  readonly features?: RffOptions;
}

/**
 * DIRECT logistic regression (Evans & Nair §4, Theorem 2), Pr(y = 1 | w) = σ(φᵀw): a mean-field
 * categorical q over the discrete grid, trained by minibatch stochastic gradients (Adam) on the
 * Theorem-2 ELBO lower bound, whose cost grows with n. Each `update` takes `stepsPerBatch` steps on
 * its batch with the likelihood scaled by N/|batch|. Not additive, so no `merge`.
 */
export class DirectLogitModel implements OnlineModel {
  readonly family = 'direct-logit';
  private readonly bound: DirectLogisticBound;
  private readonly q: Float64Array;
  private readonly logQ: Float64Array;
  private readonly mean: Float64Array;
  private readonly variance: Float64Array;
  private current = false;
  private readonly features: Float64Array;
  private readonly gradient: Float64Array;

  private constructor(private readonly state: DirectLogitState) {
    const { b, mbar } = state.grid;
    this.bound = new DirectLogisticBound(state.grid);
    this.q = new Float64Array(b * mbar);
    this.logQ = new Float64Array(b * mbar);
    this.mean = new Float64Array(b);
    this.variance = new Float64Array(b);
    this.features = new Float64Array(b);
    this.gradient = new Float64Array(b * mbar);
  }

  /** A model with q = prior whose records carry `dim` values (Φ, or raw inputs with `features`). */
  static create(dim: number, options: DirectLogitOptions = {}): DirectLogitModel {
    const d = optionChecks.dimension(dim);
    const features = rffFromOptions(d, options.features);
    const b = features === undefined ? d : features.outputDim;
    const grid = buildDirectGrid(b, options, false);
    const learningRate = optionChecks.positive('learningRate', options.learningRate, 0.05);
    const settings = {
      learningRate,
      stepsPerBatch: optionChecks.positiveInteger('stepsPerBatch', options.stepsPerBatch, 1),
      dataSize: options.dataSize === undefined || options.dataSize === 0 ? 0 : optionChecks.positiveInteger('dataSize', options.dataSize, 0),
    };
    return new DirectLogitModel({ dim: d, grid, features, settings, logits: grid.logPrior.slice(), adam: new Adam(b * grid.mbar, { learningRate }), records: 0 });
  }

  /** Rebuilds a model from its snapshot. */
  static restore(snapshot: ModelSnapshot): DirectLogitModel {
    return new DirectLogitModel(decodeDirectLogit(snapshot));
  }

  get dim(): number {
    return this.state.dim;
  }

  get recordsSeen(): number {
    return this.state.records;
  }

  get grid(): DirectGrid {
    return this.state.grid;
  }

  get featureMap(): RandomFourierFeatures | undefined {
    return this.state.features;
  }

  /** Features Φ of a (validated) batch: the records themselves, or their images under the feature map. */
  private phi(batch: Batch): Float64Array {
    const features = this.state.features;
    if (features === undefined) return batch.x;
    const b = features.outputDim;
    const phi = new Float64Array(batch.n * b);
    for (let r = 0; r < batch.n; r++) features.map(batch.x, r * batch.d, phi, r * b);
    return phi;
  }

  /** Takes `stepsPerBatch` Adam steps on the minibatch estimate of the Theorem-2 ELBO bound; reports the bound before the last step. */
  update(batch: Batch): UpdateStats {
    validateBatch(batch, this.state.dim);
    const signs = signedLabels(batch, new Float64Array(batch.n));
    if (batch.n === 0) return { records: 0 };
    const phi = this.phi(batch);
    const s = this.state;
    s.records += batch.n;
    const scale = (s.settings.dataSize > 0 ? s.settings.dataSize : s.records) / batch.n;
    let objective = 0;
    for (let t = 0; t < s.settings.stepsPerBatch; t++) {
      objective = this.bound.evaluate(s.logits, phi, signs, batch.n, scale, this.gradient, batch.weights);
      for (let k = 0; k < this.gradient.length; k++) this.gradient[k] = -this.gradient[k];
      s.adam.step(s.logits, this.gradient);
    }
    this.current = false;
    return { records: batch.n, objective, iterations: s.settings.stepsPerBatch };
  }

  /** The Theorem-2 ELBO bound on a whole data set (likelihood unscaled) at the current q. */
  elboBound(batch: Batch): number {
    validateBatch(batch, this.state.dim);
    const signs = signedLabels(batch, new Float64Array(batch.n));
    return this.bound.evaluate(this.state.logits, this.phi(batch), signs, batch.n, 1, undefined, batch.weights);
  }

  private refresh(): void {
    if (this.current) return;
    const { b, mbar, support } = this.state.grid;
    softmaxRows(this.state.logits, 0, b, mbar, this.q, this.logQ);
    for (let j = 0; j < b; j++) {
      let s = 0;
      let s2 = 0;
      for (let m = 0; m < mbar; m++) { const k = j * mbar + m; s += this.q[k] * support[k]; s2 += this.q[k] * support[k] * support[k]; }
      this.mean[j] = s;
      this.variance[j] = Math.max(0, s2 - s * s);
    }
    this.current = true;
  }

  /** q(w_j = w̄_jm), b×m̄. */
  probs(): Float64Array {
    this.refresh();
    return this.q.slice();
  }

  /** Var_q(w_j): the diagonal of Cov_q(w), which is diagonal under mean field. */
  posteriorVariance(): Float64Array {
    this.refresh();
    return this.variance.slice();
  }

  /** Expected fraction of weights at the zero atom. */
  sparsity(): number {
    this.refresh();
    let mass = 0;
    for (let k = 0; k < this.q.length; k++) if (this.state.grid.support[k] === 0) mass += this.q[k];
    return mass / this.state.grid.b;
  }

  /**
   * p(y = 1 | x): the logit z = φᵀw has exact mean φᵀs and variance Σ φ_j² Var_q(w_j) under q; E_q σ(z)
   * is approximated by σ(μ/√(1 + πv/8)) (MacKay's probit approximation).
   */
  predict(x: Float64Array, offset = 0): BernoulliPredictive {
    this.refresh();
    const features = this.state.features;
    let phi = x;
    let at = offset;
    if (features !== undefined) { features.map(x, offset, this.features); phi = this.features; at = 0; }
    let mu = 0;
    let v = 0;
    for (let j = 0; j < this.mean.length; j++) { const f = phi[at + j]; mu += f * this.mean[j]; v += f * f * this.variance[j]; }
    return new BernoulliPredictive(sigmoid(mu / Math.sqrt(1 + (Math.PI * v) / 8)), mu, v);
  }

  /** Draws w ~ q as packed integer codes (4-bit when m̄ ≤ 16). */
  sampleCodes(rng: Rng): QuantizedWeights {
    this.refresh();
    const { b, mbar, support } = this.state.grid;
    return drawCodes(this.q, b, mbar, rng, new QuantizedWeights(b, support, mbar));
  }

  sample(rng: Rng, out: Float64Array = new Float64Array(this.state.grid.b)): Float64Array {
    return this.sampleCodes(rng).decode(out);
  }

  posteriorMean(): Float64Array {
    this.refresh();
    return this.mean.slice();
  }

  summary(): PosteriorSummary {
    this.refresh();
    let norm = 0;
    let trace = 0;
    for (let j = 0; j < this.mean.length; j++) { norm += this.mean[j] ** 2; trace += this.variance[j]; }
    return { meanNorm: Math.sqrt(norm), traceCovariance: trace, effectiveDataSize: this.state.records };
  }

  snapshot(): ModelSnapshot {
    return encodeDirectLogit(this.state);
  }
}
