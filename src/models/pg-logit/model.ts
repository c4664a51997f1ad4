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
import { choleskyInverse } from '../../linalg/cholesky-inverse.js';
import { dot } from '../../linalg/dot.js';
import { logDetCholesky } from '../../linalg/log-det-cholesky.js';
import { solveLower } from '../../linalg/solve-lower.js';
import { solveLowerTransposed } from '../../linalg/solve-lower-transposed.js';
import type { Rng } from '../../rng/rng.js';
import { buildPgLogitPrior, type PgLogitPriorOptions } from './build-prior.js';
import { pgLogitCavi } from './cavi.js';
import { decodePgLogit, encodePgLogit, PG_LOGIT_FAMILY } from './codec.js';
import { pgLogitElbo } from './objective.js';
import { predictPgLogit, type PgLogitPredictor } from './predict.js';
import { refreshMoments } from './refresh-moments.js';
import type { PgLogitState, PgLogitUpdateMode } from './state.js';
import { SviStepper } from './svi-stepper.js';

/** Options of `pg-logit`. */
export interface PgLogitOptions {
  /** `sda` (default): CAVI on each batch with the current posterior as prior; `svi`: one SVI step per batch. */
  readonly mode?: PgLogitUpdateMode;
  /** Prior N(μ₀, Σ₀); default N(0, 10·I) (the paper's Figure 1). */
  readonly prior?: PgLogitPriorOptions;
  /** CAVI stops when |ΔELBO| < tol·|ELBO|; without it, when |ΔELBO| < 1e-10 (absolute: the reference rule). */
  readonly tol?: number;
  /** Maximum CAVI sweeps per update; default 10,000. */
  readonly maxIter?: number;
  /** SVI delay τ ≥ 0 in ρ_t = (t + τ)^−κ; default 1. */
  readonly tau?: number;
  /** SVI forgetting rate κ ∈ (0.5, 1]; default 0.75. */
  readonly kappa?: number;
  /**
   * SVI only, and required there: the effective data size N, the n of Algorithm 3. Each step scales
   * its minibatch by N/|B|, so the posterior represents N records: on a stream, a window of about
   * the last N records.
   */
  readonly effectiveSize?: number;
}

/**
 * Bayesian logistic regression by Pólya-gamma mean-field VB (Durante & Rigon 2019): q(β) = N(μ, Σ)
 * held in natural parameters λ₁ = Σ⁻¹μ, λ₂ = −½Σ⁻¹ with the Cholesky factor of −2λ₂. Labels 0/1 or
 * ±1, optional record weights. `update` is, by construction, either `sda` — CAVI (Algorithm 2) on the
 * batch with the current posterior as prior (streaming VB, Broderick et al. 2013; on the first batch
 * it is the batch CAVI) — or `svi` — one step of Algorithm 3 with effective data size N. `merge` adds
 * natural-parameter deltas from the common prior (`sda` only) and `forget(γ)` pulls λ toward the
 * prior's natural parameters.
 */
export class PgLogitModel implements OnlineModel {
  readonly family = PG_LOGIT_FAMILY;
  private readonly stepper: SviStepper;
  private readonly work: Float64Array;
  private labels = new Float64Array(0);

  private constructor(private readonly state: PgLogitState) {
    this.stepper = new SviStepper(state.dim);
    this.work = new Float64Array(state.dim);
  }

  static create(dim: number, options: PgLogitOptions = {}): PgLogitModel {
    const d = optionChecks.dimension(dim);
    const mode = optionChecks.oneOf('mode', options.mode, 'sda', ['sda', 'svi'] as const);
    const prior = buildPgLogitPrior(d, options.prior);
    if (mode === 'svi' && options.effectiveSize === undefined) {
      throw new ConfigError('svi mode needs the effective data size N (the number of records the posterior represents)', { field: 'effectiveSize' });
    }
    if (mode === 'sda' && options.effectiveSize !== undefined) throw new ConfigError('effectiveSize applies to svi mode only', { field: 'effectiveSize', value: options.effectiveSize });
    const state: PgLogitState = {
      dim: d, prior,
      settings: {
        mode,
        tol: options.tol === undefined ? 1e-10 : optionChecks.positive('tol', options.tol, 1e-10),
        relativeTol: options.tol !== undefined,
        maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 10_000),
        tau: optionChecks.nonNegative('tau', options.tau, 1),
        kappa: optionChecks.inRange('kappa', options.kappa, 0.75, 0.5, 1, true),
        effectiveSize: mode === 'svi' ? optionChecks.positive('effectiveSize', options.effectiveSize, 1) : Number.NaN,
      },
      shift: prior.shift.slice(), precision: prior.precision.slice(), factor: new Float64Array(d * d), mean: prior.mean.slice(),
      step: 0, records: 0, elbo: Number.NaN, iterations: 0,
    };
    refreshMoments(state.shift, state.precision, d, state.factor, state.mean);
    return new PgLogitModel(state);
  }

  static restore(snapshot: ModelSnapshot): PgLogitModel {
    return new PgLogitModel(decodePgLogit(snapshot));
  }

  get dim(): number {
    return this.state.dim;
  }

  get recordsSeen(): number {
    return this.state.records;
  }

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
    const d = this.state.dim;
    const cov = new Float64Array(d * d);
    choleskyInverse(this.state.factor, d, cov);
    return cov;
  }

  /** The optimal local parameter ξ = √(xᵀΣx + (xᵀμ)²) of a record against the current q(β) (Algorithm 2). */
  localXi(x: Float64Array, offset = 0): number {
    const d = this.state.dim;
    for (let j = 0; j < d; j++) this.work[j] = x[offset + j];
    solveLower(this.state.factor, d, this.work, this.work);
    const m = dot(this.state.mean, x, d, 0, offset);
    return Math.sqrt(dot(this.work, this.work, d) + m * m);
  }

  /**
   * The ELBO (eq. 2.3, exact for the augmented model) of the current q(β) on a batch under the
   * model's prior, at the optimal ξ: for a fixed dataset, what CAVI maximises. O(nd² + d³).
   */
  elbo(batch: Batch): number {
    validateBatch(batch, this.state.dim);
    const y = signedLabels(batch, new Float64Array(batch.n));
    return pgLogitElbo(this.state.prior, this.state.factor, this.state.mean, this.state.dim, batch.x, y, batch.n, undefined, batch.weights);
  }

  update(batch: Batch): UpdateStats {
    validateBatch(batch, this.state.dim);
    if (this.labels.length < batch.n) this.labels = new Float64Array(batch.n);
    const y = signedLabels(batch, this.labels);
    if (batch.n === 0) return { records: 0 };
    const s = this.state;
    if (s.settings.mode === 'svi') {
      this.stepper.step(s, batch.x, y, batch.n, batch.weights);
      return { records: batch.n, iterations: 1 };
    }
    const prior = { mean: s.mean, precision: s.precision, shift: s.shift, logdetPrecision: logDetCholesky(s.factor, s.dim) };
    const fit = pgLogitCavi(prior, batch.x, y, batch.n, s.dim, s.settings, batch.weights);
    s.shift.set(fit.shift);
    s.precision.set(fit.precision);
    s.factor.set(fit.factor);
    s.mean.set(fit.mean);
    s.records += batch.n;
    s.elbo = fit.elbo;
    s.iterations = fit.iterations;
    return { records: batch.n, objective: fit.elbo, iterations: fit.iterations };
  }

  /** p(y = 1 | x) under q(β): `exact` E[σ(xᵀβ)] (default) or the `probit` approximation; carries the logit's mean and variance. */
  predict(x: Float64Array, offset = 0, predictor: PgLogitPredictor = 'exact'): BernoulliPredictive {
    return predictPgLogit(this.state.factor, this.state.mean, this.state.dim, x, offset, predictor, this.work);
  }

  /** β = μ + L⁻ᵀz with z ~ N(0, I), L the Cholesky factor of Σ⁻¹ (so Cov β = Σ). */
  sample(rng: Rng, out: Float64Array = new Float64Array(this.state.dim)): Float64Array {
    const d = this.state.dim;
    for (let j = 0; j < d; j++) this.work[j] = rng.normal();
    solveLowerTransposed(this.state.factor, d, this.work, this.work);
    for (let j = 0; j < d; j++) out[j] = this.state.mean[j] + this.work[j];
    return out;
  }

  posteriorMean(): Float64Array {
    return this.state.mean.slice();
  }

  /** ‖μ‖, ln|Σ|, Tr Σ, and the records represented: N in `svi` mode, the (forgetting-scaled) count in `sda` mode. */
  summary(): PosteriorSummary {
    const s = this.state;
    const d = s.dim;
    const cov = this.covariance();
    let traceCovariance = 0;
    for (let i = 0; i < d; i++) traceCovariance += cov[i * d + i];
    return {
      meanNorm: Math.sqrt(dot(s.mean, s.mean, d)),
      logDetCovariance: -logDetCholesky(s.factor, d),
      traceCovariance,
      effectiveDataSize: s.settings.mode === 'svi' ? s.settings.effectiveSize : s.records,
    };
  }

  snapshot(): ModelSnapshot {
    return encodePgLogit(this.state);
  }

  /**
   * SDA-Bayes merge (Broderick et al. 2013): λ = λ_A + λ_B − λ₀ for two `sda` models with the same
   * prior fed disjoint streams. λ₁ (the part conjugate in the augmented space) is exactly the one
   * model fed both; λ₂ keeps each side's own z̄, so this is the SDA-Bayes approximation, not the batch
   * posterior. An `svi` posterior represents a window of N records and is not additive: refused.
   */
  merge(other: OnlineModel): void {
    if (!(other instanceof PgLogitModel)) throw new ShapeError(`cannot merge a ${other.family} model into ${this.family}`, { field: 'family', value: other.family });
    const a = this.state;
    const b = other.state;
    if (b.dim !== a.dim) throw new ShapeError(`cannot merge dimension ${b.dim} into ${a.dim}`, { field: 'dim', value: b.dim });
    if (a.settings.mode !== 'sda' || b.settings.mode !== 'sda') throw new ConfigError('only sda models merge: an svi posterior represents a window of N records, not additive evidence', { field: 'mode' });
    const samePrior = a.prior.mean.every((v, i) => v === b.prior.mean[i]) && a.prior.precision.every((v, i) => v === b.prior.precision[i]);
    if (!samePrior) throw new ConfigError('cannot merge models with different priors', { field: 'prior' });
    const shift = a.shift.map((v, i) => v + b.shift[i] - a.prior.shift[i]);
    const precision = a.precision.map((v, i) => v + b.precision[i] - a.prior.precision[i]);
    this.setNatural(shift, precision);
    a.records += b.records;
  }

  /** Power prior: λ ← γλ + (1 − γ)λ₀ on both natural parameters, γ ∈ (0, 1]; the records represented scale by γ. */
  forget(factor: number): void {
    if (!(factor > 0 && factor <= 1)) throw new InputError('forgetting factor must be in (0, 1]', { field: 'factor', value: factor });
    const s = this.state;
    const shift = s.shift.map((v, i) => factor * v + (1 - factor) * s.prior.shift[i]);
    const precision = s.precision.map((v, i) => factor * v + (1 - factor) * s.prior.precision[i]);
    this.setNatural(shift, precision);
    s.records *= factor;
  }

  private setNatural(shift: Float64Array, precision: Float64Array): void {
    const d = this.state.dim;
    const factor = new Float64Array(d * d);
    const mean = new Float64Array(d);
    refreshMoments(shift, precision, d, factor, mean);
    this.state.shift.set(shift);
    this.state.precision.set(precision);
    this.state.factor.set(factor);
    this.state.mean.set(mean);
  }
}
