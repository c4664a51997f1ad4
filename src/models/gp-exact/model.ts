import type { Batch } from '../../core/batch.js';
import { ConfigError } from '../../core/config-error.js';
import { InputError } from '../../core/input-error.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import type { OnlineModel, PosteriorSummary, UpdateStats } from '../../core/online-model.js';
import { optionChecks } from '../../core/option-checks.js';
import { GaussianPredictive } from '../../core/predictive/gaussian-predictive.js';
import { validateBatch } from '../../core/validate-batch.js';
import { RbfKernel } from '../../kernels/rbf-kernel.js';
import { minimizeLbfgs } from '../../optim/lbfgs.js';
import type { Rng } from '../../rng/rng.js';
import { decodeGpExact, encodeGpExact } from './codec.js';
import { logMarginalLikelihood, type ExactGpFactor } from './log-marginal-likelihood.js';
import type { GpExactState } from './state.js';

/** Options of `gp-exact`. */
export interface GpExactOptions {
  readonly kernel?: { readonly type?: 'rbf' | 'rbf-ard'; readonly variance?: number; readonly lengthscale?: number | readonly number[] };
  readonly noiseVariance?: number;
  /** Hold the kernel and/or the noise at their given values instead of maximising the marginal likelihood. */
  readonly fixed?: readonly ('kernel' | 'noise')[];
  /** L-BFGS iterations per hyperparameter fit; default 200. */
  readonly maxIterations?: number;
}

/**
 * Exact GP regression, the reference for small n (Rasmussen & Williams 2006, Alg. 2.1): zero mean,
 * RBF / RBF-ARD kernel; hyperparameters maximise log p(y | X, θ) (eq. 5.8) by L-BFGS from the current
 * values. The model keeps every record: `update` appends the batch and refits, O(n³) per update.
 */
export class GpExactModel implements OnlineModel {
  readonly family = 'gp-exact';
  private readonly kernel: RbfKernel;
  private fitted: ExactGpFactor | undefined;

  private constructor(private readonly state: GpExactState) {
    this.kernel = new RbfKernel(state.dim, state.ard);
  }

  static create(dim: number, options: GpExactOptions = {}): GpExactModel {
    const d = optionChecks.dimension(dim);
    for (const key of Object.keys(options)) if (!['kernel', 'noiseVariance', 'fixed', 'maxIterations'].includes(key)) throw new ConfigError('unknown gp-exact option; accepted: kernel, noiseVariance, fixed, maxIterations', { field: key });
    const kernelOptions = options.kernel ?? {};
    const ard = optionChecks.oneOf('kernel.type', kernelOptions.type, 'rbf', ['rbf', 'rbf-ard'] as const) === 'rbf-ard';
    const raw = kernelOptions.lengthscale ?? 1;
    const lengths = typeof raw === 'number' ? Array.from({ length: ard ? d : 1 }, () => raw) : Array.from(raw);
    if (lengths.length !== (ard ? d : 1)) throw new ConfigError(`kernel.lengthscale must have ${ard ? d : 1} entries`, { field: 'kernel.lengthscale', value: raw });
    lengths.forEach((l, j) => optionChecks.positive(`kernel.lengthscale[${j}]`, l, 1));
    const kernel = new RbfKernel(d, ard, optionChecks.positive('kernel.variance', kernelOptions.variance, 1), ard ? lengths : lengths[0]);
    const fixed = options.fixed ?? [];
    if (!Array.isArray(fixed)) throw new ConfigError('must be a list of kernel, noise', { field: 'fixed', value: fixed });
    for (const g of fixed) optionChecks.oneOf('fixed', g, 'kernel', ['kernel', 'noise'] as const);
    const params = new Float64Array(kernel.size + 1);
    params.set(kernel.params);
    params[kernel.size] = Math.log(optionChecks.positive('noiseVariance', options.noiseVariance, 1));
    return new GpExactModel({
      dim: d, ard, fixedKernel: fixed.includes('kernel'), fixedNoise: fixed.includes('noise'),
      maxIterations: optionChecks.positiveInteger('maxIterations', options.maxIterations, 200),
      params, x: new Float64Array(0), y: new Float64Array(0), records: 0, logMarginal: Number.NaN,
    });
  }

  static restore(snapshot: ModelSnapshot): GpExactModel {
    return new GpExactModel(decodeGpExact(snapshot));
  }

  get dim(): number {
    return this.state.dim;
  }

  get recordsSeen(): number {
    return this.state.records;
  }

  /** Whether the kernel is RBF-ARD. */
  get ard(): boolean {
    return this.state.ard;
  }

  /** log p(y | X, θ) at the current hyperparameters. */
  get logMarginal(): number {
    return this.state.logMarginal;
  }

  /** Current s², ℓ and σ². */
  hyperparameters(): { variance: number; lengthscale: number[]; noiseVariance: number } {
    this.sync(this.state.params);
    return { variance: this.kernel.variance, lengthscale: Array.from({ length: this.state.ard ? this.state.dim : 1 }, (_, j) => this.kernel.lengthscale(j)), noiseVariance: Math.exp(this.state.params[this.kernel.size]) };
  }

  private sync(params: Float64Array): number {
    this.kernel.params.set(params.subarray(0, this.kernel.size));
    return Math.exp(params[this.kernel.size]);
  }

  /** Appends the batch, refits the free hyperparameters by L-BFGS, refactorises. Untouched on error. */
  update(batch: Batch): UpdateStats {
    validateBatch(batch, this.state.dim);
    if (batch.weights !== undefined && batch.weights.some((w, i) => i < batch.n && w !== 1)) throw new InputError('gp-exact does not support record weights other than 1', { field: 'weights' });
    if (batch.n === 0) return { records: 0 };
    const s = this.state;
    const d = s.dim;
    const n = s.records + batch.n;
    const x = new Float64Array(n * d);
    x.set(s.x);
    x.set(batch.x.subarray(0, batch.n * d), s.records * d);
    const y = new Float64Array(n);
    y.set(s.y);
    y.set(batch.y.subarray(0, batch.n), s.records);
    let params = s.params;
    let iterations = 0;
    if (!s.fixedKernel || !s.fixedNoise) {
      const free = (g: Float64Array) => {
        if (s.fixedKernel) g.fill(0, 0, this.kernel.size);
        if (s.fixedNoise) g[this.kernel.size] = 0;
      };
      const result = minimizeLbfgs((theta, g) => {
        let value: number;
        try {
          value = -logMarginalLikelihood(this.kernel, this.sync(theta), x, y, n, g);
        } catch {
          g.fill(0);
          return Infinity;
        }
        for (let k = 0; k < g.length; k++) g[k] = -g[k];
        free(g);
        return value;
      }, params, { maxIterations: s.maxIterations, relativeTolerance: 1e-12, gradientTolerance: 1e-7 });
      params = result.x;
      iterations = result.iterations;
    }
    const fitted: ExactGpFactor = { factor: new Float64Array(n * n), alpha: new Float64Array(n) };
    const logMarginal = logMarginalLikelihood(this.kernel, this.sync(params), x, y, n, undefined, fitted);
    s.params = params.slice();
    s.x = x;
    s.y = y;
    s.records = n;
    s.logMarginal = logMarginal;
    this.fitted = fitted;
    return { records: batch.n, objective: logMarginal, iterations };
  }

  /** Latent f at the n rows of x: mean k*ᵀα and variance s² − k*ᵀ(K + σ²I)⁻¹k*. */
  predictLatent(xs: Float64Array, m: number): { mean: Float64Array; variance: Float64Array } {
    const s = this.state;
    const n = s.records;
    const noise = this.sync(s.params);
    if (this.fitted === undefined && n > 0) {
      this.fitted = { factor: new Float64Array(n * n), alpha: new Float64Array(n) };
      logMarginalLikelihood(this.kernel, noise, s.x, s.y, n, undefined, this.fitted);
    }
    const cross = new Float64Array(m * n);
    this.kernel.cross(xs, m, s.x, n, cross);
    const mean = new Float64Array(m);
    const variance = new Float64Array(m).fill(this.kernel.variance);
    const v = new Float64Array(n);
    for (let r = 0; r < m; r++) {
      const f = this.fitted as ExactGpFactor;
      for (let i = 0; i < n; i++) {
        mean[r] += cross[r * n + i] * f.alpha[i];
        let sum = cross[r * n + i];
        for (let j = 0; j < i; j++) sum -= f.factor[i * n + j] * v[j];
        v[i] = sum / f.factor[i * n + i];
        variance[r] -= v[i] * v[i];
      }
      if (variance[r] < 0) variance[r] = 0;
    }
    return { mean, variance };
  }

  /** Joint posterior covariance of f at the m rows of x: K** − K*f(K + σ²I)⁻¹Kf*. O(n²m + nm²). */
  latentCovariance(xs: Float64Array, m: number): Float64Array {
    const s = this.state;
    const n = s.records;
    this.predictLatent(xs.subarray(0, 0), 0);
    const f = this.fitted as ExactGpFactor;
    const cross = new Float64Array(n * m);
    this.kernel.cross(s.x, n, xs, m, cross);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < i; j++) {
        const l = f.factor[i * n + j];
        for (let r = 0; r < m; r++) cross[i * m + r] -= l * cross[j * m + r];
      }
      const inv = 1 / f.factor[i * n + i];
      for (let r = 0; r < m; r++) cross[i * m + r] *= inv;
    }
    const out = new Float64Array(m * m);
    this.kernel.cross(xs, m, xs, m, out);
    for (let i = 0; i < n; i++) {
      for (let r = 0; r < m; r++) {
        const a = cross[i * m + r];
        for (let c = 0; c < m; c++) out[r * m + c] -= a * cross[i * m + c];
      }
    }
    return out;
  }

  predict(x: Float64Array, offset = 0): GaussianPredictive {
    const latent = this.predictLatent(x.subarray(offset, offset + this.state.dim), 1);
    return new GaussianPredictive(latent.mean[0], latent.variance[0] + Math.exp(this.state.params[this.kernel.size]));
  }

  /** The exact GP's parameters are its hyperparameters: returns [log s², log ℓ…, log σ²] (no posterior over them). */
  sample(_rng: Rng, out: Float64Array = new Float64Array(this.state.params.length)): Float64Array {
    out.set(this.state.params);
    return out;
  }

  posteriorMean(): Float64Array {
    return this.state.params.slice();
  }

  summary(): PosteriorSummary {
    let norm = 0;
    for (const v of this.state.params) norm += v * v;
    return { meanNorm: Math.sqrt(norm), effectiveDataSize: this.state.records };
  }

  snapshot(): ModelSnapshot {
    return encodeGpExact(this.state);
  }
}
