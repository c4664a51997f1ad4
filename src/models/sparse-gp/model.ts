import type { Batch } from '../../core/batch.js';
import { InputError } from '../../core/input-error.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import type { OnlineModel, PosteriorSummary, UpdateStats } from '../../core/online-model.js';
import type { Predictive } from '../../core/predictive.js';
import { BernoulliPredictive } from '../../core/predictive/bernoulli-predictive.js';
import { GaussianPredictive } from '../../core/predictive/gaussian-predictive.js';
import { validateBatch } from '../../core/validate-batch.js';
import { RbfKernel } from '../../kernels/rbf-kernel.js';
import { cholesky } from '../../linalg/cholesky.js';
import { BernoulliLogitPointwise } from '../../likelihoods/bernoulli-logit-pointwise.js';
import { BernoulliLogitViper } from '../../likelihoods/bernoulli-logit-viper.js';
import { BernoulliProbitLikelihood } from '../../likelihoods/bernoulli-probit-likelihood.js';
import { GaussianLikelihood } from '../../likelihoods/gaussian-likelihood.js';
import type { PointwiseLikelihood } from '../../likelihoods/pointwise-likelihood.js';
import { PoissonLikelihood } from '../../likelihoods/poisson-likelihood.js';
import { Adam } from '../../optim/adam.js';
import { Rng } from '../../rng/rng.js';
import { normalCdf } from '../../special/normal-cdf.js';
import { BmcDlmObjective } from './bmc-dlm-objective.js';
import { decodeSparseGp, encodeSparseGp } from './codec.js';
import { ElboObjective } from './elbo-objective.js';
import { kmeansPlusPlus } from './kmeans-plus-plus.js';
import { LogLossDlmObjective } from './log-loss-dlm-objective.js';
import { resolveSparseGpOptions, type ResolvedSparseGpOptions, type SparseGpLikelihoodName, type SparseGpOptions } from './options.js';
import { ParameterLayout } from './parameter-layout.js';
import type { SparseGpObjective } from './point-loss.js';
import { PoissonLogNormalPredictive } from './poisson-log-normal-predictive.js';
import { SparseGpEvaluator, type SparseGpGradient, type SparseGpParameters } from './sparse-gp-evaluator.js';
import { squareLossMinimiser } from './square-loss-minimiser.js';
import { SquareLossDlmObjective } from './square-loss-dlm-objective.js';
import type { SparseGpState } from './state.js';
import { StoppingRule } from './stopping-rule.js';
import { UpsDlmObjective } from './ups-dlm-objective.js';

/** The objective a model minimises, from its options. */
function makeObjective(o: ResolvedSparseGpOptions, likelihood: PointwiseLikelihood): SparseGpObjective {
  if (o.objective === 'sq-dlm') return new SquareLossDlmObjective();
  const l = likelihood as PointwiseLikelihood;
  // logit: the ELBO through the VI-PER bound (Komodromos et al. §2.2.2); the DLM by Gauss–Hermite, since VI-PER bounds E log σ, not log E σ.
  if (o.likelihood === 'bernoulli-logit' && o.objective === 'elbo') return new ElboObjective(new BernoulliLogitViper());
  if (o.objective === 'elbo') return new ElboObjective(l);
  if (o.estimator === 'bmc') return new BmcDlmObjective(l, o.samples);
  if (o.estimator === 'ups') return new UpsDlmObjective(l, o.samples);
  return new LogLossDlmObjective(l);
}

function makeLikelihood(name: SparseGpLikelihoodName, noiseVariance: number): PointwiseLikelihood {
  if (name === 'gaussian') return new GaussianLikelihood(noiseVariance);
  if (name === 'bernoulli-probit') return new BernoulliProbitLikelihood();
  if (name === 'poisson') return new PoissonLikelihood();
  return new BernoulliLogitPointwise();
}

/**
 * Sparse variational GP over a stream (Hensman et al. 2015; Wei, Sheth & Khardon 2021): q(u) = N(m, LLᵀ)
 * at M inducing inputs Z, an RBF / RBF-ARD kernel, and one of the ELBO / β-ELBO / log-loss DLM /
 * square-loss DLM objectives. `update(batch)` takes `stepsPerUpdate` Adam steps on that minibatch with
 * the data term scaled by N/B (N = `dataSize`, or the records seen so far); the square-loss DLM sets m
 * to its closed-form minimiser on the minibatch instead. Not additive: no `merge` or `forget`.
 */
export class SparseGpModel implements OnlineModel {
  private readonly kernel: RbfKernel;
  private readonly likelihood: PointwiseLikelihood;
  private readonly objective: SparseGpObjective;
  private readonly evaluator: SparseGpEvaluator;
  private readonly fullL: Float64Array;
  private readonly gradient: SparseGpGradient;
  private readonly gradTheta: Float64Array;
  private readonly backupTheta: Float64Array;
  private readonly backupMoments: Float64Array;
  private readonly hyperFree: boolean;

  private constructor(private readonly state: SparseGpState) {
    const o = state.options;
    const { M } = o;
    this.kernel = new RbfKernel(state.dim, o.ard);
    this.likelihood = makeLikelihood(o.likelihood, o.noiseVariance);
    this.objective = makeObjective(o, this.likelihood);
    this.evaluator = new SparseGpEvaluator(M, state.dim);
    this.fullL = new Float64Array(M * M);
    this.gradient = { m: new Float64Array(M), L: new Float64Array(M * M), kernel: new Float64Array(this.kernel.size), Z: new Float64Array(M * state.dim), logNoise: 0, meanConstant: 0 };
    this.gradTheta = new Float64Array(state.layout.size);
    this.backupTheta = new Float64Array(state.layout.size);
    this.backupMoments = new Float64Array(2 * state.layout.size + 1);
    const f = o.fixed;
    this.hyperFree = !f.includes('kernel') || !f.includes('Z') || (o.likelihood === 'gaussian' && !f.includes('noise')) || (o.mean === 'constant' && !f.includes('mean'));
  }

  /** A fresh model; Z comes from `options.Z` or, at the first update, from that batch by k-means++. */
  static create(family: string, dim: number, options: SparseGpOptions, likelihoods: readonly SparseGpLikelihoodName[]): SparseGpModel {
    const o = resolveSparseGpOptions(dim, options, likelihoods);
    const kernel = new RbfKernel(dim, o.ard, o.variance, o.ard ? o.lengthscale : o.lengthscale[0]);
    const layout = new ParameterLayout(o.M, dim, kernel.size);
    const theta = new Float64Array(layout.size);
    theta.set(kernel.params, layout.kernel);
    theta[layout.noise] = Math.log(o.noiseVariance);
    const model = new SparseGpModel({
      family, dim, options: o, layout, theta, adam: new Adam(layout.size, { learningRate: o.learningRate }), rng: Rng.fromSeed(o.seed),
      initialised: false, records: 0, steps: 0, lastObjective: Number.NaN,
    });
    if (o.Z !== null) model.initialise(Float64Array.from(o.Z.flat()), o.M);
    return model;
  }

  static restore(family: string, snapshot: ModelSnapshot): SparseGpModel {
    return new SparseGpModel(decodeSparseGp(family, snapshot));
  }

  get family(): string {
    return this.state.family;
  }

  get dim(): number {
    return this.state.dim;
  }

  get recordsSeen(): number {
    return this.state.records;
  }

  get options(): ResolvedSparseGpOptions {
    return this.state.options;
  }

  /** Adam steps taken so far. */
  get steps(): number {
    return this.state.steps;
  }

  /** The objective of the last step, in the sum form Σ_i loss_i (scaled to N) + β·R. */
  get lastObjective(): number {
    return this.state.lastObjective;
  }

  /** The evaluator's view of the current parameters (kernel and likelihood synchronised with θ). */
  private parameters(): SparseGpParameters {
    const { theta, layout, options: o } = this.state;
    this.kernel.params.set(theta.subarray(layout.kernel, layout.kernel + this.kernel.size));
    const noiseVariance = Math.exp(theta[layout.noise]);
    if (this.likelihood instanceof GaussianLikelihood) this.likelihood.noiseVariance = noiseVariance;
    layout.unpackL(theta, this.fullL);
    return {
      kernel: this.kernel, noiseVariance, meanConstant: theta[layout.mean], M: o.M, Z: theta.subarray(layout.z, layout.z + o.M * this.state.dim),
      m: theta.subarray(0, o.M), L: this.fullL, whitened: o.whitened, jitter: o.jitter, beta: o.beta,
    };
  }

  /** Sets Z from `source` rows (k-means++, or its first M rows with `zInit: "first"`) and q to the prior: m = 0, L = I (whitened) or chol(Kuu). */
  private initialise(source: Float64Array, rows: number): void {
    const { layout, theta, options: o, dim } = this.state;
    const Z = theta.subarray(layout.z, layout.z + o.M * dim);
    if (o.Z !== null) Z.set(source);
    else if (o.zInit === 'first' && rows >= o.M) Z.set(source.subarray(0, o.M * dim));
    else kmeansPlusPlus(source, rows, dim, o.M, this.state.rng, Z);
    theta.fill(0, 0, layout.kernel);
    if (!o.whitened) {
      const p = this.parameters();
      const kuu = new Float64Array(o.M * o.M);
      p.kernel.cross(p.Z, o.M, p.Z, o.M, kuu);
      for (let a = 0; a < o.M; a++) kuu[a * o.M + a] += o.jitter;
      const lk = new Float64Array(o.M * o.M);
      cholesky(kuu, o.M, lk, { what: 'Kuu (inducing-point covariance)' });
      layout.packL(lk, theta);
    }
    this.state.initialised = true;
  }

  private checkLabels(batch: Batch): void {
    const firstRow = batch.firstRow ?? 1;
    for (let i = 0; i < batch.n; i++) {
      const y = batch.y[i];
      const problem = this.likelihood.labelProblem(y);
      if (problem !== undefined) throw new InputError(problem, { row: firstRow + i, column: 'y', value: y });
    }
  }

  /**
   * Absorbs a minibatch: `stepsPerUpdate` optimiser steps on it (records are counted once). The batch is
   * validated first; a numerical failure rolls θ, Adam and the generator back, so the model is untouched.
   */
  update(batch: Batch): UpdateStats {
    validateBatch(batch, this.state.dim);
    if (batch.weights !== undefined && batch.weights.some((w, i) => i < batch.n && w !== 1)) throw new InputError('the sparse GP does not support record weights other than 1', { field: 'weights' });
    this.checkLabels(batch);
    if (batch.n === 0) return { records: 0, iterations: 0 };
    const s = this.state;
    this.atomically(() => {
      if (!s.initialised) this.initialise(batch.x, batch.n);
      const dataSize = s.options.dataSize ?? s.records + batch.n;
      for (let k = 0; k < s.options.stepsPerUpdate; k++) this.step(batch.x, batch.y, batch.n, dataSize / batch.n);
    });
    s.records += batch.n;
    return { records: batch.n, objective: s.lastObjective, iterations: s.options.stepsPerUpdate };
  }

  /** Runs `work`; if it throws, θ, Adam, the generator and the counters are put back as they were. */
  private atomically(work: () => void): void {
    const s = this.state;
    const rngState = s.rng.getState();
    const { initialised, steps, lastObjective } = s;
    this.saveBackup();
    try {
      work();
    } catch (error) {
      this.restoreBackup();
      s.rng = Rng.fromState(rngState);
      s.initialised = initialised;
      s.steps = steps;
      s.lastObjective = lastObjective;
      throw error;
    }
  }

  /** One optimiser step on (x, y) with the data term scaled by `scale`; returns the objective before the step. */
  step(x: Float64Array, y: Float64Array, n: number, scale: number): number {
    const s = this.state;
    const { layout, theta, options: o } = s;
    const M = o.M;
    if (!s.initialised) this.initialise(x, n);
    this.objective.prepare?.(n, s.rng);
    let p = this.parameters();
    if (o.objective === 'sq-dlm') {
      this.setSquareLossMean(p, x, y, n, scale);
      p = this.parameters();
    }
    const g = this.gradient;
    const value = this.evaluator.evaluate(p, x, y, n, this.objective, scale, g, this.hyperFree);
    if (!Number.isFinite(value)) throw new InputError('the objective is not finite at the current parameters; lower learningRate or rescale the data', { field: 'objective', value });
    const gt = this.gradTheta;
    gt.fill(0);
    if (o.objective !== 'sq-dlm') {
      gt.set(g.m, 0);
      layout.packLGradient(g.L, this.fullL, gt);
    }
    if (this.hyperFree) {
      if (!o.fixed.includes('kernel')) gt.set(g.kernel, layout.kernel);
      if (o.likelihood === 'gaussian' && !o.fixed.includes('noise')) gt[layout.noise] = g.logNoise;
      if (o.mean === 'constant' && !o.fixed.includes('mean')) gt[layout.mean] = g.meanConstant;
      if (!o.fixed.includes('Z')) gt.set(g.Z, layout.z);
    }
    s.adam.step(theta, gt);
    for (let k = 0; k < M; k++) if (!Number.isFinite(theta[k])) throw new InputError('an optimiser step left a non-finite parameter; lower learningRate', { field: 'm', value: theta[k] });
    s.steps += 1;
    s.lastObjective = value;
    return value;
  }

  /**
   * Batch training on (x, y) (n rows): minibatches of `batchSize` in file order, cycling, one Adam step
   * each with the n/B scaling, until the stopping rule holds on the per-record objective (objective/n,
   * as GPyTorch scales it) or `maxIterations` steps. The records count once; an error leaves the model untouched.
   */
  fit(x: Float64Array, y: Float64Array, n: number, settings: { batchSize?: number; maxIterations?: number; window?: number; tolerance?: number } = {}): { iterations: number; converged: boolean } {
    const d = this.state.dim;
    validateBatch({ x, y, n, d }, d);
    this.checkLabels({ x, y, n, d });
    const batchSize = Math.min(n, settings.batchSize ?? n);
    const rule = new StoppingRule(settings.window ?? 50, settings.tolerance ?? 1e-4);
    const maxIterations = settings.maxIterations ?? 5000;
    let iterations = 0;
    let converged = false;
    this.atomically(() => {
      if (!this.state.initialised) this.initialise(x, n);
      let start = 0;
      while (iterations < maxIterations && !converged) {
        const size = Math.min(batchSize, n - start);
        const value = this.step(x.subarray(start * d, (start + size) * d), y.subarray(start, start + size), size, n / size);
        iterations += 1;
        converged = rule.push(value / n);
        start = start + size >= n ? 0 : start + size;
      }
    });
    this.state.records += n;
    return { iterations, converged };
  }

  /** Square-loss DLM: m ← its closed-form minimiser on the minibatch (App. C), in the model's parameterisation. */
  private setSquareLossMean(p: SparseGpParameters, x: Float64Array, y: Float64Array, n: number, scale: number): void {
    const M = this.state.options.M;
    const m = this.state.theta.subarray(0, M);
    squareLossMinimiser(p, x, y, n, scale, m);
    if (!p.whitened) return;
    this.evaluator.marginals(p, x, 0);
    const lk = this.evaluator.lk;
    for (let a = 0; a < M; a++) {
      let sum = m[a];
      for (let b = 0; b < a; b++) sum -= lk[a * M + b] * m[b];
      m[a] = sum / lk[a * M + a];
    }
  }

  /**
   * The objective in the paper's sum form, Σ_i loss_i + β·R(q) (not divided by n), on (x, y) at the
   * current parameters, without changing anything but the stochastic estimators' draws.
   */
  objectiveValue(x: Float64Array, y: Float64Array, n: number): number {
    this.objective.prepare?.(n, this.state.rng);
    return this.evaluator.evaluate(this.parameters(), x, y, n, this.objective, 1);
  }

  /** Latent q(f) = N(μ_i, v_i) at the n rows of x (row-major n×d). */
  predictLatent(x: Float64Array, n: number): { mean: Float64Array; variance: Float64Array } {
    if (!this.state.initialised) throw new InputError('the sparse GP has seen no data yet (Z is not set)', { field: 'Z' });
    this.evaluator.marginals(this.parameters(), x, n);
    return { mean: this.evaluator.mu.slice(0, n), variance: this.evaluator.v.slice(0, n) };
  }

  /** Predictive distribution of y at x[offset .. offset+d): Gaussian (noise included), Bernoulli, or Poisson–log-normal. */
  predict(x: Float64Array, offset = 0): Predictive {
    const latent = this.predictLatent(x.subarray(offset, offset + this.state.dim), 1);
    return this.predictiveFromLatent(latent.mean[0], latent.variance[0]);
  }

  /** The predictive distribution of y given the latent marginal N(mu, v). */
  predictiveFromLatent(mu: number, v: number): Predictive {
    const name = this.state.options.likelihood;
    if (name === 'gaussian') return new GaussianPredictive(mu, v + Math.exp(this.state.theta[this.state.layout.noise]));
    if (name === 'bernoulli-probit') return new BernoulliPredictive(normalCdf(mu / Math.sqrt(1 + v)), mu, v);
    if (name === 'bernoulli-logit') return new BernoulliPredictive(Math.exp(this.likelihood.logMarginal(1, mu, v)), mu, v);
    return new PoissonLogNormalPredictive(mu, v);
  }

  /** q(u) unwhitened: mean (M, including the constant mean) and covariance (M×M). */
  inducingPosterior(): { mean: Float64Array; cov: Float64Array; factor: Float64Array } {
    const M = this.state.options.M;
    const mean = new Float64Array(M);
    const cov = new Float64Array(M * M);
    const factor = new Float64Array(M * M);
    this.evaluator.inducingPosterior(this.parameters(), mean, cov);
    this.evaluator.inducingFactor(factor);
    return { mean, cov, factor };
  }

  /** Current hyperparameters and Z (copies). */
  hyperparameters(): { variance: number; lengthscale: number[]; noiseVariance: number; meanConstant: number; Z: Float64Array } {
    const { theta, layout, dim, options: o } = this.state;
    this.parameters();
    return {
      variance: this.kernel.variance, lengthscale: Array.from({ length: o.ard ? dim : 1 }, (_, j) => this.kernel.lengthscale(j)),
      noiseVariance: Math.exp(theta[layout.noise]), meanConstant: theta[layout.mean], Z: theta.slice(layout.z, layout.z + o.M * dim),
    };
  }

  /** A draw of u ~ q(u) at the inducing inputs (Thompson sampling), M values. */
  sample(rng: Rng, out: Float64Array = new Float64Array(this.state.options.M)): Float64Array {
    const M = this.state.options.M;
    const { mean, factor } = this.inducingPosterior();
    const eps = new Float64Array(M);
    for (let a = 0; a < M; a++) eps[a] = rng.normal();
    for (let a = 0; a < M; a++) {
      let sum = mean[a];
      for (let b = 0; b <= a; b++) sum += factor[a * M + b] * eps[b];
      out[a] = sum;
    }
    return out;
  }

  /**
   * A joint draw of f at the n rows of x: u ~ q(u), then f | u ~ p(f | u) =
   * N(c + K_fu Kuu⁻¹(u − c), K_ff − K_fu Kuu⁻¹ K_uf) (the sparse GP's predictive process). O(n³ + nM²).
   */
  sampleLatent(rng: Rng, x: Float64Array, n: number): Float64Array {
    const s = this.state;
    const M = s.options.M;
    const p = this.parameters();
    const u = this.sample(rng);
    const kuu = new Float64Array(M * M);
    p.kernel.cross(p.Z, M, p.Z, M, kuu);
    for (let a = 0; a < M; a++) kuu[a * M + a] += p.jitter;
    const lk = new Float64Array(M * M);
    cholesky(kuu, M, lk, { what: 'Kuu (inducing-point covariance)' });
    const kuf = new Float64Array(M * n);
    p.kernel.cross(p.Z, M, x, n, kuf);
    const b = new Float64Array(M * n);
    for (let i = 0; i < n; i++) {
      for (let a = 0; a < M; a++) {
        let sum = kuf[a * n + i];
        for (let k = 0; k < a; k++) sum -= lk[a * M + k] * b[k * n + i];
        b[a * n + i] = sum / lk[a * M + a];
      }
    }
    const w = new Float64Array(M);
    for (let a = 0; a < M; a++) {
      let sum = u[a] - p.meanConstant;
      for (let k = 0; k < a; k++) sum -= lk[a * M + k] * w[k];
      w[a] = sum / lk[a * M + a];
    }
    const kff = new Float64Array(n * n);
    p.kernel.cross(x, n, x, n, kff);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j <= i; j++) {
        let q = 0;
        for (let a = 0; a < M; a++) q += b[a * n + i] * b[a * n + j];
        kff[i * n + j] -= q;
      }
      kff[i * n + i] += p.jitter;
    }
    const lf = new Float64Array(n * n);
    cholesky(kff, n, lf, { what: 'conditional covariance of f given u' });
    const out = new Float64Array(n);
    const eps = new Float64Array(n);
    for (let i = 0; i < n; i++) eps[i] = rng.normal();
    for (let i = 0; i < n; i++) {
      let sum = p.meanConstant;
      for (let a = 0; a < M; a++) sum += b[a * n + i] * w[a];
      for (let j = 0; j <= i; j++) sum += lf[i * n + j] * eps[j];
      out[i] = sum;
    }
    return out;
  }

  posteriorMean(): Float64Array {
    return this.inducingPosterior().mean;
  }

  summary(): PosteriorSummary {
    const M = this.state.options.M;
    const { mean, cov, factor } = this.inducingPosterior();
    let norm = 0;
    let traceCovariance = 0;
    let logDetCovariance = 0;
    for (let a = 0; a < M; a++) {
      norm += mean[a] * mean[a];
      traceCovariance += cov[a * M + a];
      logDetCovariance += 2 * Math.log(factor[a * M + a]);
    }
    return { meanNorm: Math.sqrt(norm), traceCovariance, logDetCovariance, effectiveDataSize: this.state.options.dataSize ?? this.state.records };
  }

  snapshot(): ModelSnapshot {
    return encodeSparseGp(this.state);
  }

  private saveBackup(): void {
    const s = this.state;
    this.backupTheta.set(s.theta);
    this.backupMoments.set(s.adam.m, 0);
    this.backupMoments.set(s.adam.v, s.layout.size);
    this.backupMoments[2 * s.layout.size] = s.adam.t;
  }

  private restoreBackup(): void {
    const s = this.state;
    s.theta.set(this.backupTheta);
    s.adam.m.set(this.backupMoments.subarray(0, s.layout.size));
    s.adam.v.set(this.backupMoments.subarray(s.layout.size, 2 * s.layout.size));
    s.adam.t = this.backupMoments[2 * s.layout.size];
  }
}
