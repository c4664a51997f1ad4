import type { Batch } from '../../core/batch.js';
import { ConfigError } from '../../core/config-error.js';
import { InputError } from '../../core/input-error.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import type { OnlineModel, PosteriorSummary, UpdateStats } from '../../core/online-model.js';
import { optionChecks } from '../../core/option-checks.js';
import type { StudentTPredictive } from '../../core/predictive/student-t-predictive.js';
import { ShapeError } from '../../core/shape-error.js';
import { validateBatch } from '../../core/validate-batch.js';
import { cholesky } from '../../linalg/cholesky.js';
import { dot } from '../../linalg/dot.js';
import { conditionNumber } from '../../linalg/condition-number.js';
import { trace } from '../../linalg/trace.js';
import type { Rng } from '../../rng/rng.js';
import { sampleMultivariateNormal } from '../../rng/sample-multivariate-normal.js';
import { decodeVbLinear, encodeVbLinear } from './codec.js';
import { fitVbLinear } from './fit.js';
import type { VbLinearPosterior } from './posterior.js';
import { predictVbLinear } from './predict.js';
import { VB_LINEAR_DEFAULT_PRIOR, type VbLinearState } from './state.js';
import { accumulateVbLinear } from './update.js';

/** Options of `vb-linear` / `vb-linear-ard`. Defaults follow VBLinLogit. */
export interface VbLinearOptions {
  readonly prior?: { readonly a0?: number; readonly b0?: number; readonly c0?: number; readonly d0?: number };
  /** Relative bound change that stops the fit; default 1e-5 (the reference). */
  readonly tol?: number;
  /** Maximum VB passes; default 500. */
  readonly maxIter?: number;
}

/**
 * Bayesian linear regression with a normal-inverse-gamma posterior and a Gamma hyperprior on the
 * weight precision (Drugowitsch §2; `ard` gives one precision per weight, §2.4). The model keeps
 * only XᵀX, Xᵀy, yᵀy and N, so updates are O(d²) per record, a stream gives exactly the batch fit,
 * and two models of disjoint streams merge exactly. The VB fit runs lazily when the posterior is
 * needed and is cached until the next update.
 */
export class VbLinearModel implements OnlineModel {
  private fitted: VbLinearPosterior | undefined;
  private covarianceFactor: Float64Array | undefined;

  private constructor(readonly family: string, private readonly state: VbLinearState) {}

  /** A model with no data, of dimension `dim`. */
  static create(family: string, dim: number, ard: boolean, options: VbLinearOptions = {}): VbLinearModel {
    const d = optionChecks.dimension(dim);
    const p = options.prior ?? {};
    const prior = {
      a0: optionChecks.positive('prior.a0', p.a0, VB_LINEAR_DEFAULT_PRIOR.a0),
      b0: optionChecks.positive('prior.b0', p.b0, VB_LINEAR_DEFAULT_PRIOR.b0),
      c0: optionChecks.positive('prior.c0', p.c0, VB_LINEAR_DEFAULT_PRIOR.c0),
      d0: optionChecks.positive('prior.d0', p.d0, VB_LINEAR_DEFAULT_PRIOR.d0),
    };
    return new VbLinearModel(family, {
      dim: d, ard, prior,
      tol: optionChecks.positive('tol', options.tol, 1e-5),
      maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 500),
      xtx: new Float64Array(d * d), xty: new Float64Array(d), yty: 0, n: 0, records: 0,
    });
  }

  /** Rebuilds a model from its snapshot. */
  static restore(family: string, snapshot: ModelSnapshot): VbLinearModel {
    return new VbLinearModel(family, decodeVbLinear(family, snapshot));
  }

  get dim(): number {
    return this.state.dim;
  }

  get recordsSeen(): number {
    return this.state.records;
  }

  update(batch: Batch): UpdateStats {
    validateBatch(batch, this.state.dim);
    accumulateVbLinear(this.state, batch);
    this.invalidate();
    return { records: batch.n };
  }

  /** The VB posterior at the current statistics (computed on demand, then cached). */
  posterior(): VbLinearPosterior {
    if (this.fitted === undefined) this.fitted = fitVbLinear(this.state);
    return this.fitted;
  }

  predict(x: Float64Array, offset = 0): StudentTPredictive {
    return predictVbLinear(this.posterior(), this.state.dim, x, offset);
  }

  /** Draws τ ~ Gam(a_N, b_N) then w ~ N(w_N, V_N/τ) (eq. 6) and returns w. */
  sample(rng: Rng, out: Float64Array = new Float64Array(this.state.dim)): Float64Array {
    const posterior = this.posterior();
    const d = this.state.dim;
    if (this.covarianceFactor === undefined) {
      const factor = new Float64Array(d * d);
      cholesky(posterior.V, d, factor, { what: 'posterior covariance V_N' });
      this.covarianceFactor = factor;
    }
    const scale = 1 / Math.sqrt(rng.gamma(posterior.an, posterior.bn));
    sampleMultivariateNormal(rng, posterior.w, this.covarianceFactor, d, out);
    for (let i = 0; i < d; i++) out[i] = posterior.w[i] + scale * (out[i] - posterior.w[i]);
    return out;
  }

  posteriorMean(): Float64Array {
    return this.posterior().w.slice();
  }

  /** Marginal posterior covariance of w, V_N·b_N/(a_N − 1) (defined for a_N > 1). */
  posteriorCovariance(): Float64Array {
    const { V, an, bn } = this.posterior();
    return V.map((v) => (v * bn) / (an - 1));
  }

  summary(): PosteriorSummary {
    const { w, V, logdetV, an, bn } = this.posterior();
    const d = this.state.dim;
    const scale = bn / (an - 1);
    return {
      meanNorm: Math.sqrt(dot(w, w, d)),
      logDetCovariance: logdetV + d * Math.log(scale),
      traceCovariance: trace(V, d) * scale,
      conditionNumber: conditionNumber(V, d),
      effectiveDataSize: this.state.n,
    };
  }

  snapshot(): ModelSnapshot {
    return encodeVbLinear(this.family, this.state);
  }

  /** Adds the other model's sufficient statistics: exactly the model fed both streams. */
  merge(other: OnlineModel): void {
    if (!(other instanceof VbLinearModel) || other.family !== this.family) {
      throw new ShapeError(`cannot merge a ${other.family} model into ${this.family}`, { field: 'family', value: other.family });
    }
    const a = this.state;
    const b = other.state;
    if (b.dim !== a.dim) throw new ShapeError(`cannot merge dimension ${b.dim} into ${a.dim}`, { field: 'dim', value: b.dim });
    if (JSON.stringify(b.prior) !== JSON.stringify(a.prior)) throw new ConfigError('cannot merge models with different priors', { field: 'prior' });
    for (let i = 0; i < a.xtx.length; i++) a.xtx[i] += b.xtx[i];
    for (let i = 0; i < a.dim; i++) a.xty[i] += b.xty[i];
    a.yty += b.yty;
    a.n += b.n;
    a.records += b.records;
    this.invalidate();
  }

  /** Power prior: scales the statistics by `factor` in (0, 1], so old records count less. */
  forget(factor: number): void {
    if (!(factor > 0 && factor <= 1)) throw new InputError('forgetting factor must be in (0, 1]', { field: 'factor', value: factor });
    if (factor === 1) return;
    const s = this.state;
    for (let i = 0; i < s.xtx.length; i++) s.xtx[i] *= factor;
    for (let i = 0; i < s.dim; i++) s.xty[i] *= factor;
    s.yty *= factor;
    s.n *= factor;
    this.invalidate();
  }

  private invalidate(): void {
    this.fitted = undefined;
    this.covarianceFactor = undefined;
  }
}
