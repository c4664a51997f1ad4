import type { Batch } from '../../core/batch.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { NumericalError } from '../../core/numerical-error.js';
import type { OnlineModel, PosteriorSummary, UpdateStats } from '../../core/online-model.js';
import { optionChecks } from '../../core/option-checks.js';
import type { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { signedLabels } from '../../core/signed-labels.js';
import { validateBatch } from '../../core/validate-batch.js';
import { BernoulliLogitGaussHermite } from '../../likelihoods/bernoulli-logit-gauss-hermite.js';
import { BernoulliLogitMonteCarlo } from '../../likelihoods/bernoulli-logit-monte-carlo.js';
import { bernoulliLogit, type BernoulliLogitMethod } from '../../likelihoods/bernoulli-logit.js';
import { Adam } from '../../optim/adam.js';
import { minimizeLbfgs } from '../../optim/lbfgs.js';
import { Rng } from '../../rng/rng.js';
import { sampleMultivariateNormal } from '../../rng/sample-multivariate-normal.js';
import { decodeViPer, encodeViPer } from './codec.js';
import { gaussianFromFactor, type GaussianPrior } from './gaussian-prior.js';
import { GaussianLogitObjective, packedLength } from './objective.js';
import type { ViPerOptions } from './options.js';
import { predictGaussianLogit } from './predict.js';
import { resolvePrior } from './prior-options.js';
import { resolveViPerSettings } from './settings.js';
import type { CovarianceForm, ViPerState } from './state.js';

/**
 * Bayesian logistic regression with a Gaussian q(β) = N(μ, Σ), Σ = LLᵀ full (the paper's Q') or
 * diagonal (Q), fitted by maximising F(μ, Σ) = Σᵢ E_q[log p(yᵢ | xᵢᵀβ)] − KL(q ‖ p) (Komodromos et al.
 * 2024, eq. 11) with analytic gradients and L-BFGS, the expectation taken by the chosen evaluator:
 * the VI-PER bound η_l (`vi-per`, `vi-per-mf`), Gauss–Hermite, i.e. the exact ELBO (`vi-gh`), or
 * reparameterised Monte Carlo (`vi-mc`). Labels 0/1 or ±1.
 *
 * Streaming: with `streaming: 'sda'` each `update` optimises on its batch with the current q as
 * the prior (streaming VB; one batch holding all the data is the batch fit); with `'svi'` it takes
 * `stepsPerBatch` Adam steps on the minibatch objective with the data term scaled by N/B.
 * `predict` gives p(y = 1 | x) = E_q[σ(xᵀβ)] by 100-node Gauss–Hermite quadrature.
 */
export class ViPerModel implements OnlineModel {
  private readonly objective: GaussianLogitObjective;
  private readonly prior: GaussianPrior;
  private readonly predictive = new BernoulliLogitGaussHermite(100);
  private readonly params: Float64Array;
  private readonly z: Float64Array;
  private labels = new Float64Array(0);

  private constructor(readonly family: string, private state: ViPerState) {
    const { dim: d, settings } = state;
    this.prior = gaussianFromFactor(state.priorMean, state.priorFactor, d);
    const likelihood = bernoulliLogit(settings.method, settings);
    this.objective = new GaussianLogitObjective(d, settings.covariance, likelihood);
    this.params = new Float64Array(packedLength(d, settings.covariance));
    this.z = new Float64Array(d);
  }

  /** A model with no data: q = the prior (projected onto the diagonal for mean-field). */
  static create(family: string, dim: number, method: BernoulliLogitMethod, covariance: CovarianceForm, options: ViPerOptions = {}): ViPerModel {
    const d = optionChecks.dimension(dim);
    const settings = resolveViPerSettings(options, method, covariance);
    const prior = resolvePrior(options.prior, d);
    const factor = prior.factor.slice();
    if (settings.covariance === 'diagonal') {
      factor.fill(0);
      for (let i = 0; i < d; i++) factor[i * d + i] = 1 / Math.sqrt(prior.precision[i * d + i]);
    }
    const rng = Rng.fromSeed(settings.seed);
    return new ViPerModel(family, {
      dim: d, settings, priorMean: prior.mean, priorFactor: prior.factor, mu: prior.mean.slice(), factor,
      records: 0, objective: Number.NaN, iterations: 0, adam: new Float64Array(0), rng: Float64Array.from(rng.getState()),
    });
  }

  static restore(family: string, snapshot: ModelSnapshot): ViPerModel {
    return new ViPerModel(family, decodeViPer(family, snapshot));
  }

  get dim(): number {
    return this.state.dim;
  }

  get recordsSeen(): number {
    return this.state.records;
  }

  /** Posterior covariance Σ = LLᵀ (a new d×d row-major array). */
  covariance(): Float64Array {
    const { dim: d, factor: l } = this.state;
    const sigma = new Float64Array(d * d);
    for (let i = 0; i < d; i++) {
      for (let j = 0; j <= i; j++) {
        let sum = 0;
        for (let k = 0; k <= j; k++) sum += l[i * d + k] * l[j * d + k];
        sigma[i * d + j] = sigma[j * d + i] = sum;
      }
    }
    return sigma;
  }

  /** The lower Cholesky factor L of Σ (a copy). */
  choleskyFactor(): Float64Array {
    return this.state.factor.slice();
  }

  /** F at the end of the last update, its L-BFGS iterations (SVI: Adam steps), and the settings. */
  get diagnostics(): { objective: number; iterations: number; settings: ViPerState['settings'] } {
    return { objective: this.state.objective, iterations: this.state.iterations, settings: this.state.settings };
  }

  update(batch: Batch): UpdateStats {
    validateBatch(batch, this.state.dim);
    if (this.labels.length < batch.n) this.labels = new Float64Array(batch.n);
    signedLabels(batch, this.labels);
    if (batch.n === 0) return { records: 0, objective: this.state.objective, iterations: 0 };
    if (this.state.settings.streaming === 'svi') this.sviSteps(batch);
    else this.fitBatch(batch);
    return { records: batch.n, objective: this.state.objective, iterations: this.state.iterations };
  }

  /** L-BFGS on F for this batch, the current q as the prior (the original prior for the first batch). */
  private fitBatch(batch: Batch): void {
    const s = this.state;
    const { x, n, weights } = batch;
    const prior = s.records === 0 ? this.prior : gaussianFromFactor(s.mu, s.factor, s.dim);
    const labels = this.labels;
    const objective = this.objective;
    objective.pack(s.mu, s.factor, this.params);
    const result = minimizeLbfgs((p, g) => {
      const f = objective.evaluate(p, g, x, labels, n, weights, 1, prior);
      for (let i = 0; i < g.length; i++) g[i] = -g[i];
      return -f;
    }, this.params, { relativeTolerance: s.settings.tol, maxIterations: s.settings.maxIter });
    if (!Number.isFinite(result.value) || !result.x.every(Number.isFinite)) {
      throw new NumericalError(`${this.family}: the objective became non-finite (${result.value}) during the fit`, { field: 'objective', value: result.value });
    }
    objective.unpack(result.x, s.mu, s.factor);
    s.records += n;
    s.objective = -result.value;
    s.iterations = result.iterations;
  }

  /** `stepsPerBatch` Adam steps on (N/B)·Σ_batch E log p − KL(q ‖ prior), fresh Monte Carlo draws per step for `vi-mc`. */
  private sviSteps(batch: Batch): void {
    const s = this.state;
    const { x, n, weights } = batch;
    const settings = s.settings;
    const size = settings.dataSize > 0 ? settings.dataSize : s.records + n;
    const adam = s.adam.length > 0 ? Adam.fromState(s.adam) : new Adam(this.params.length, { learningRate: settings.learningRate });
    const rng = Rng.fromState(Uint32Array.from(s.rng));
    const likelihood = this.objective.likelihood;
    const gradient = new Float64Array(this.params.length);
    this.objective.pack(s.mu, s.factor, this.params);
    let value = Number.NaN;
    for (let step = 0; step < settings.stepsPerBatch; step++) {
      if (likelihood instanceof BernoulliLogitMonteCarlo) likelihood.resample(rng);
      value = this.objective.evaluate(this.params, gradient, x, this.labels, n, weights, size / n, this.prior);
      for (let i = 0; i < gradient.length; i++) gradient[i] = -gradient[i];
      adam.step(this.params, gradient);
    }
    if (!Number.isFinite(value) || !this.params.every(Number.isFinite)) {
      throw new NumericalError(`${this.family}: the SVI step became non-finite (${value})`, { field: 'objective', value });
    }
    this.objective.unpack(this.params, s.mu, s.factor);
    s.adam = adam.state();
    s.rng = Float64Array.from(rng.getState());
    s.records += n;
    s.objective = value;
    s.iterations = settings.stepsPerBatch;
  }

  predict(x: Float64Array, offset = 0): BernoulliPredictive {
    return predictGaussianLogit(this.state.mu, this.state.factor, this.state.dim, x, offset, this.predictive);
  }

  sample(rng: Rng, out?: Float64Array): Float64Array {
    return sampleMultivariateNormal(rng, this.state.mu, this.state.factor, this.state.dim, out, this.z);
  }

  posteriorMean(): Float64Array {
    return this.state.mu.slice();
  }

  summary(): PosteriorSummary {
    const { dim: d, mu, factor } = this.state;
    let norm = 0;
    let logDet = 0;
    let trace = 0;
    for (let i = 0; i < d; i++) {
      norm += mu[i] * mu[i];
      logDet += 2 * Math.log(factor[i * d + i]);
      for (let j = 0; j <= i; j++) trace += factor[i * d + j] ** 2;
    }
    return { meanNorm: Math.sqrt(norm), logDetCovariance: logDet, traceCovariance: trace, effectiveDataSize: this.state.records };
  }

  snapshot(): ModelSnapshot {
    return encodeViPer(this.family, this.state);
  }
}
