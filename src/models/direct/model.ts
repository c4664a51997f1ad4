import type { Batch } from '../../core/batch.js';
import { ConfigError } from '../../core/config-error.js';
import { InputError } from '../../core/input-error.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import type { OnlineModel, PosteriorSummary, UpdateStats } from '../../core/online-model.js';
import { optionChecks } from '../../core/option-checks.js';
import { GaussianPredictive } from '../../core/predictive/gaussian-predictive.js';
import { ShapeError } from '../../core/shape-error.js';
import { validateBatch } from '../../core/validate-batch.js';
import type { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import { Rng } from '../../rng/rng.js';
import { decodeDirect, encodeDirect } from './codec.js';
import { DirectCavi } from './cavi.js';
import { completeGram } from './complete-gram.js';
import { drawCodes } from './draw-codes.js';
import { rffFromOptions, type RffOptions } from './feature-options.js';
import { fitDirect } from './fit.js';
import { fitDirectMixture } from './mixture-fit.js';
import { DirectMixtureElbo } from './mixture-objective.js';
import { buildDirectGrid, type DirectGridOptions } from './grid.js';
import { DirectElbo } from './objective.js';
import type { DirectPosterior } from './posterior.js';
import { directPredictiveMoments, type DirectPredictiveMoments } from './predict.js';
import { QuantizedWeights } from './quantized-weights.js';
import type { DirectGrid, DirectState } from './state.js';
import { accumulateDirect } from './update.js';

/** Options of `direct`. */
export interface DirectOptions extends DirectGridOptions {
  /** Starts per fit: the warm start plus restarts − 1 seeded random starts (default 1). */
  readonly restarts?: number;
  /** Seed of the random starts (default 1). */
  readonly seed?: number;
  /** L-BFGS iterations per start (default 1000, the paper's cap). */
  readonly maxIter?: number;
  /** Re-fit inside `update` once this many records arrived since the last fit (default 0: lazily, when the posterior is read). */
  readonly refitEvery?: number;
  /**
   * Exact coordinate-ascent sweeps on the categorical factors that initialise each L-BFGS start
   * (default 200, stopping early when q stops moving; 0: L-BFGS straight from the start as in the paper).
   */
  readonly caviSweeps?: number;
  /**
   * Components r of a mixture variational family q(w) = Σ_k π_k Π_j q_kj(w_j) (default 1: mean field,
   * the L-BFGS fit alone). With r > 1 the mean-field fit is followed by Adam on the Theorem-3 bound (§4),
   * from perturbed copies of the mean-field q; the result is the best bound seen, or the mean-field q
   * itself (as a mixture of equal components) if the steps never beat it.
   */
  readonly components?: number;
  /** Adam steps of the mixture fit (default 500). */
  readonly mixtureSteps?: number;
  /** Adam learning rate of the mixture fit (default 0.05). */
  readonly mixtureLearningRate?: number;
  /** Entropy gradient of the mixture fit: 'stochastic' (eq. 11, default) or 'bound' (Theorem 3's exact gradient). */
  readonly mixtureEntropy?: 'stochastic' | 'bound';
  /** Draws per step of the eq. (11) estimator (default 3000, the paper's t). */
  readonly entropySamples?: number;
  /** A feature map applied to each record (records then carry raw inputs x). */
  readonly features?: RffOptions;
}

/** Standard deviation of the perturbation of the mean-field logits that starts each mixture component. */
const MIXTURE_PERTURBATION = 1;

/** Largest gap below a row's top logit in the mixture's start. */
const LOGIT_FLOOR = 40;

function mixtureEntropy(value: unknown): 'stochastic' | 'bound' {
  if (value === undefined) return 'stochastic';
  if (value !== 'stochastic' && value !== 'bound') throw new ConfigError("must be 'stochastic' or 'bound'", { field: 'mixtureEntropy', value });
  return value;
}

/** Rows mapped through the feature map per chunk (bounds the scratch buffer). */
const CHUNK_ROWS = 64;

/**
 * DIRECT generalized linear regression (Evans & Nair, §3.1): discrete priors on the weights and the
 * noise variance, a mean-field categorical q fitted by L-BFGS on the exact ELBO of Theorem 1. The
 * model keeps ΦᵀΦ, Φᵀy, yᵀy and n, so `update` costs O(b²) per record, a fit costs the same for any
 * n, and two models of disjoint streams merge exactly. The fit (warm-started from the previous
 * logits) runs when the posterior is read after an update, or inside `update` every `refitEvery`
 * records, or on `refit()`.
 */
export class DirectModel implements OnlineModel {
  readonly family = 'direct';
  private readonly objective: DirectElbo;
  private readonly cavi: DirectCavi;
  private readonly mixture: DirectMixtureElbo | undefined;
  private fitted: DirectPosterior | undefined;
  private lastFit: { iterations: number; converged: boolean; startElbos: number[] } = { iterations: 0, converged: true, startElbos: [] };
  private scratch: Float64Array | undefined;
  private readonly features: Float64Array;

  private constructor(private readonly state: DirectState) {
    this.objective = new DirectElbo(state.grid, state.stats);
    this.cavi = new DirectCavi(state.grid, state.stats);
    this.mixture = state.settings.components === 1 ? undefined : new DirectMixtureElbo(state.grid, state.stats, state.settings.components);
    this.features = new Float64Array(state.grid.b);
  }

  /** A model with no data whose records carry `dim` values (Φ, or raw inputs when `features` is set). */
  static create(dim: number, options: DirectOptions = {}): DirectModel {
    const d = optionChecks.dimension(dim);
    const features = rffFromOptions(d, options.features);
    const b = features === undefined ? d : features.outputDim;
    const grid = buildDirectGrid(b, options, true);
    const seed = optionChecks.nonNegative('seed', options.seed, 1);
    if (!Number.isSafeInteger(seed)) throw new ConfigError('must be a non-negative integer', { field: 'seed', value: seed });
    const settings = {
      restarts: optionChecks.positiveInteger('restarts', options.restarts, 1),
      seed,
      maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 1000),
      refitEvery: options.refitEvery === undefined || options.refitEvery === 0 ? 0 : optionChecks.positiveInteger('refitEvery', options.refitEvery, 0),
      caviSweeps: options.caviSweeps === 0 ? 0 : optionChecks.positiveInteger('caviSweeps', options.caviSweeps, 200),
      components: optionChecks.positiveInteger('components', options.components, 1),
      mixtureSteps: optionChecks.positiveInteger('mixtureSteps', options.mixtureSteps, 500),
      mixtureLearningRate: optionChecks.positive('mixtureLearningRate', options.mixtureLearningRate, 0.05),
      mixtureEntropy: mixtureEntropy(options.mixtureEntropy),
      entropySamples: optionChecks.positiveInteger('entropySamples', options.entropySamples, 3000),
    };
    const mixtureSize = settings.components === 1 ? 0 : new DirectMixtureElbo(grid, { b: 0, gram: new Float64Array(0), phiTy: new Float64Array(0), yty: 0, n: 0, records: 0, complete: true }, settings.components).size;
    return new DirectModel({
      dim: d, grid, features, settings,
      stats: { b, gram: new Float64Array(b * b), phiTy: new Float64Array(b), yty: 0, n: 0, records: 0, complete: true },
      logits: DirectModel.priorLogits(grid), mixture: new Float64Array(mixtureSize), stale: true, sinceFit: 0,
    });
  }

  /** Rebuilds a model from its snapshot. */
  static restore(snapshot: ModelSnapshot): DirectModel {
    return new DirectModel(decodeDirect('direct', snapshot));
  }

  /** Logits with q equal to the prior (the authors' initialisation). */
  private static priorLogits(grid: DirectGrid): Float64Array {
    const logits = new Float64Array(grid.b * grid.mbar + grid.K);
    logits.set(grid.logPrior);
    logits.set(grid.logNoisePrior, grid.b * grid.mbar);
    return logits;
  }

  get dim(): number {
    return this.state.dim;
  }

  /** Number of weights b. */
  get weightCount(): number {
    return this.state.grid.b;
  }

  get recordsSeen(): number {
    return this.state.stats.records;
  }

  /** The grid (support and prior log-probabilities). */
  get grid(): DirectGrid {
    return this.state.grid;
  }

  /** The feature map, when records carry raw inputs. */
  get featureMap(): RandomFourierFeatures | undefined {
    return this.state.features;
  }

  /** Accumulates the batch (O(b²) per record) and marks the fit stale; re-fits when `refitEvery` records have arrived. */
  update(batch: Batch): UpdateStats {
    validateBatch(batch, this.state.dim);
    const { stats, features } = this.state;
    if (features === undefined) {
      accumulateDirect(stats, batch.x, batch.n, batch.y, 0, batch.weights);
    } else {
      const b = features.outputDim;
      if (this.scratch === undefined) this.scratch = new Float64Array(CHUNK_ROWS * b);
      for (let start = 0; start < batch.n; start += CHUNK_ROWS) {
        const rows = Math.min(CHUNK_ROWS, batch.n - start);
        for (let r = 0; r < rows; r++) features.map(batch.x, (start + r) * batch.d, this.scratch, r * b);
        accumulateDirect(stats, this.scratch, rows, batch.y, start, batch.weights);
      }
    }
    this.state.sinceFit += batch.n;
    this.invalidate();
    if (this.state.settings.refitEvery > 0 && this.state.sinceFit >= this.state.settings.refitEvery) {
      const p = this.refit();
      return { records: batch.n, objective: p.elbo, iterations: p.iterations };
    }
    return { records: batch.n };
  }

  /** Fits now (warm start from the current logits, plus the configured restarts) and returns the posterior. */
  refit(): DirectPosterior {
    const sweeps = this.state.settings.caviSweeps;
    const result = fitDirect(this.objective, this.state.logits, this.state.settings, sweeps > 0 ? (start) => this.cavi.run(start, sweeps) : undefined);
    this.state.logits.set(result.logits);
    if (this.mixture !== undefined) {
      const fit = fitDirectMixture(this.mixture, this.mixtureStart(true), this.mixtureSettings());
      const embedded = this.mixtureStart(false);
      this.state.mixture.set(fit.elbo >= this.mixture.evaluate(embedded) ? fit.params : embedded);
    }
    this.state.stale = false;
    this.state.sinceFit = 0;
    this.lastFit = { iterations: result.iterations, converged: result.converged, startElbos: result.startElbos };
    this.fitted = undefined;
    return this.posterior();
  }

  /**
   * The paper's start of the mixture fit (appendix E): every component is the mean-field solution with
   * its logits perturbed by N(0, 1) draws (seeded; unperturbed when `perturb` is false, which is the
   * mean-field q itself, whose Theorem-3 bound is its exact ELBO), equal mixture weights, the Taylor
   * centre at the mean-field solution. Logits are floored at 40 below their row's largest, so every
   * atom keeps a positive probability (Theorem 3 divides by a).
   */
  private mixtureStart(perturb: boolean): Float64Array {
    const o = this.mixture as DirectMixtureElbo;
    const { b, mbar } = this.state.grid;
    const bm = b * mbar;
    const floored = this.state.logits.slice(0, bm);
    for (let j = 0; j < b; j++) {
      let max = -Infinity;
      for (let m = 0; m < mbar; m++) max = Math.max(max, floored[j * mbar + m]);
      for (let m = 0; m < mbar; m++) floored[j * mbar + m] = Math.max(floored[j * mbar + m], max - LOGIT_FLOOR);
    }
    const start = new Float64Array(o.size);
    const rng = Rng.fromSeed(this.state.settings.seed).split();
    for (let k = 0; k < o.components; k++) for (let i = 0; i < bm; i++) start[k * bm + i] = floored[i] + (perturb ? MIXTURE_PERTURBATION * rng.normal() : 0);
    start.set(floored, o.centreOffset);
    start.set(this.state.logits.subarray(bm), o.noiseOffset);
    return start;
  }

  private mixtureSettings() {
    const s = this.state.settings;
    return { steps: s.mixtureSteps, learningRate: s.mixtureLearningRate, entropy: s.mixtureEntropy, samples: s.entropySamples, seed: s.seed };
  }

  /** The fitted q (fitting first when the statistics changed since the last fit). */
  posterior(): DirectPosterior {
    if (this.state.stale) return this.refit();
    if (this.fitted === undefined && this.mixture !== undefined) this.fitted = this.mixturePosterior(this.mixture);
    if (this.fitted === undefined) {
      const o = this.objective;
      const elbo = o.evaluate(this.state.logits);
      const { b, mbar, support } = this.state.grid;
      let zeroMass = 0;
      for (let i = 0; i < b * mbar; i++) if (support[i] === 0) zeroMass += o.q[i];
      this.fitted = {
        logits: this.state.logits.slice(), elbo, probs: o.q.slice(), noiseProbs: o.noiseQ.slice(), mean: o.mean.slice(), variance: o.variance.slice(),
        expectedNoise: o.expectedNoise, sparsity: zeroMass / b, ...this.lastFit,
        components: { weights: Float64Array.of(1), probs: o.q.slice(), means: o.mean.slice(), variances: o.variance.slice() },
      };
    }
    return this.fitted;
  }

  /** The posterior of the mixture fit: marginals, moments and sparsity of Σ_k π_k q_k, and the components. */
  private mixturePosterior(o: DirectMixtureElbo): DirectPosterior {
    const elbo = o.evaluate(this.state.mixture);
    const { b, mbar, support } = this.state.grid;
    const r = o.components;
    const probs = new Float64Array(b * mbar);
    const mean = new Float64Array(b);
    const variance = new Float64Array(b);
    for (let k = 0; k < r; k++) {
      const pk = o.weights[k];
      for (let i = 0; i < b * mbar; i++) probs[i] += pk * o.q[k * b * mbar + i];
      for (let j = 0; j < b; j++) {
        const s = o.means[k * b + j];
        mean[j] += pk * s;
        variance[j] += pk * (o.variances[k * b + j] + s * s);
      }
    }
    for (let j = 0; j < b; j++) variance[j] = Math.max(0, variance[j] - mean[j] * mean[j]);
    let zeroMass = 0;
    for (let i = 0; i < b * mbar; i++) if (support[i] === 0) zeroMass += probs[i];
    return {
      logits: this.state.logits.slice(), elbo, probs, noiseProbs: o.noiseQ.slice(), mean, variance, expectedNoise: o.expectedNoise, sparsity: zeroMass / b,
      ...this.lastFit, components: { weights: o.weights.slice(), probs: o.q.slice(), means: o.means.slice(), variances: o.variances.slice() },
    };
  }

  /** Exact predictive mean (eq. 9), latent variance and variance of y at one record. */
  moments(x: Float64Array, offset = 0): DirectPredictiveMoments {
    const p = this.posterior();
    const features = this.state.features;
    const c = p.components;
    if (features === undefined) return directPredictiveMoments(c.weights, c.means, c.variances, p.expectedNoise, x, offset);
    features.map(x, offset, this.features);
    return directPredictiveMoments(c.weights, c.means, c.variances, p.expectedNoise, this.features);
  }

  /** Gaussian with the exact predictive mean and variance (the true predictive is a finite Gaussian mixture; logProb is the moment-matched one). */
  predict(x: Float64Array, offset = 0): GaussianPredictive {
    const m = this.moments(x, offset);
    return new GaussianPredictive(m.mean, m.variance);
  }

  /** Draws w ~ q as packed integer codes (4-bit when m̄ ≤ 16) with their decoder; for a mixture, a component k ~ π first, then w ~ q_k. */
  sampleCodes(rng: Rng): QuantizedWeights {
    const c = this.posterior().components;
    const { b, mbar, support } = this.state.grid;
    const r = c.weights.length;
    let k = r - 1;
    if (r > 1) {
      let u = rng.nextDouble();
      for (let i = 0; i < r - 1; i++) { u -= c.weights[i]; if (u < 0) { k = i; break; } }
    }
    return drawCodes(c.probs.subarray(k * b * mbar, (k + 1) * b * mbar), b, mbar, rng, new QuantizedWeights(b, support, mbar));
  }

  /** Draws w ~ q (the decoded {@link sampleCodes}). */
  sample(rng: Rng, out: Float64Array = new Float64Array(this.state.grid.b)): Float64Array {
    return this.sampleCodes(rng).decode(out);
  }

  posteriorMean(): Float64Array {
    return this.posterior().mean.slice();
  }

  summary(): PosteriorSummary {
    const p = this.posterior();
    let norm = 0;
    let traceCovariance = 0;
    for (let j = 0; j < p.mean.length; j++) { norm += p.mean[j] * p.mean[j]; traceCovariance += p.variance[j]; }
    return { meanNorm: Math.sqrt(norm), traceCovariance, effectiveDataSize: this.state.stats.n };
  }

  snapshot(): ModelSnapshot {
    return encodeDirect(this.family, this.state);
  }

  /** Adds the other model's statistics (exactly the model fed both streams); keeps this model's logits as the warm start. */
  merge(other: OnlineModel): void {
    if (!(other instanceof DirectModel)) throw new ShapeError(`cannot merge a ${other.family} model into ${this.family}`, { field: 'family', value: other.family });
    const a = this.state;
    const b = other.state;
    if (b.dim !== a.dim) throw new ShapeError(`cannot merge dimension ${b.dim} into ${a.dim}`, { field: 'dim', value: b.dim });
    const same = (x: Float64Array, y: Float64Array) => x.length === y.length && x.every((v, i) => v === y[i]);
    if (!same(a.grid.support, b.grid.support) || !same(a.grid.logPrior, b.grid.logPrior) || !same(a.grid.noiseSupport, b.grid.noiseSupport) || !same(a.grid.logNoisePrior, b.grid.logNoisePrior)) {
      throw new ConfigError('cannot merge models with different grids or priors', { field: 'support' });
    }
    if ((a.features === undefined) !== (b.features === undefined)
      || (a.features !== undefined && b.features !== undefined && (!same(a.features.omega, b.features.omega) || !same(a.features.lengthscales, b.features.lengthscales)))) {
      throw new ConfigError('cannot merge models with different feature maps', { field: 'features' });
    }
    completeGram(a.stats);
    completeGram(b.stats);
    for (let i = 0; i < a.stats.gram.length; i++) a.stats.gram[i] += b.stats.gram[i];
    for (let i = 0; i < a.stats.b; i++) a.stats.phiTy[i] += b.stats.phiTy[i];
    a.stats.yty += b.stats.yty;
    a.stats.n += b.stats.n;
    a.stats.records += b.stats.records;
    a.sinceFit += b.stats.records;
    this.invalidate();
  }

  /** Power prior: scales the statistics by `factor` in (0, 1], so old records count less. */
  forget(factor: number): void {
    if (!(factor > 0 && factor <= 1)) throw new InputError('forgetting factor must be in (0, 1]', { field: 'factor', value: factor });
    if (factor === 1) return;
    const s = this.state.stats;
    for (let i = 0; i < s.gram.length; i++) s.gram[i] *= factor;
    for (let i = 0; i < s.b; i++) s.phiTy[i] *= factor;
    s.yty *= factor;
    s.n *= factor;
    this.invalidate();
  }

  private invalidate(): void {
    this.state.stale = true;
    this.fitted = undefined;
  }
}
