import { InducingConditional } from './inducing-conditional.js';
import { InducingKl } from './inducing-kl.js';
import { InducingMeanPenalty } from './inducing-mean-penalty.js';
import type { InducingRegulariser } from './inducing-regulariser.js';
import type { PointLossGradient, SparseGpObjective } from './point-loss.js';
import type { SparseGpGradient, SparseGpParameters } from './sparse-gp-parameters.js';

/**
 * A sparse-GP objective Σ_i scale·ℓ_i(μ_i, v_i) + β·R(q) over a minibatch and its analytic gradient
 * (Hensman et al. 2015; Wei, Sheth & Khardon 2021, eqs. 3, 8, App. C), as GPyTorch's variational
 * ELBO sums its parts: the {@link InducingConditional} gives the marginals q(f_i) = N(μ_i, v_i), the
 * objective's data term its ℓ_i with ∂/∂μ_i and ∂/∂v_i, the regulariser R (KL(q(u) ‖ p(u)), or ½mᵀKuu⁻¹m
 * for the square-loss DLM) its value; backwards, the conditional's adjoint of the data term plus the
 * regulariser's terms give ∇m, ∇L and, with `hyper`, the kernel, noise, constant-mean and Z gradients.
 */
export class SparseGpEvaluator {
  readonly conditional: InducingConditional;
  private readonly kl: InducingKl;
  private readonly meanPenalty: InducingMeanPenalty;
  private capacity = 0;
  private gmu = new Float64Array(0);
  private gv = new Float64Array(0);
  private readonly point: PointLossGradient = { dm: 0, dv: 0, dLogNoise: 0 };
  /** Σ_i ∂ℓ_i/∂log σ² (unscaled) of the last evaluation. */
  private noise = 0;
  /** R(q) of the last evaluation. */
  regulariserValue = 0;
  /** Σ_i ℓ_i (unscaled) of the last evaluation. */
  dataValue = 0;

  constructor(readonly M: number, readonly dim: number) {
    this.conditional = new InducingConditional(M, dim);
    this.kl = new InducingKl();
    this.meanPenalty = new InducingMeanPenalty();
  }

  private ensure(n: number): void {
    if (n <= this.capacity) return;
    this.gmu = new Float64Array(n);
    this.gv = new Float64Array(n);
    this.capacity = n;
  }

  /** Σ_i ℓ_i at the conditional's marginals, with scale·∂ℓ_i/∂μ_i and scale·∂ℓ_i/∂v_i into gmu, gv. */
  private dataTerm(objective: SparseGpObjective, y: Float64Array, n: number, scale: number): number {
    const { mu, v } = this.conditional;
    const { gmu, gv, point } = this;
    let data = 0;
    let noise = 0;
    for (let i = 0; i < n; i++) {
      data += objective.pointLoss(y[i], mu[i], v[i], i, point);
      gmu[i] = scale * point.dm;
      gv[i] = scale * point.dv;
      noise += point.dLogNoise;
    }
    this.dataValue = data;
    this.noise = noise;
    return data;
  }

  /**
   * The objective scale·Σ_i ℓ_i + β·R at the parameters on the batch (x, y, n); with `gradient`, fills
   * it (in the evaluated parameterisation); `hyper` adds the kernel, noise, mean and Z gradients. Both
   * parameterisations run in whitened terms (the conditional's {@link InducingConditional.marginals}):
   * three O(BM²) passes for (m, L), four with `hyper`.
   */
  evaluate(p: SparseGpParameters, x: Float64Array, y: Float64Array, n: number, objective: SparseGpObjective, scale: number,
    gradient?: SparseGpGradient, hyper = false): number {
    this.ensure(n);
    const { M } = this;
    const regulariser: InducingRegulariser = objective.regulariser === 'kl' ? this.kl : this.meanPenalty;
    const q = this.conditional;
    q.marginals(p, x, n);
    const data = this.dataTerm(objective, y, n, scale);
    const mTilde = q.whitenedMean(p);
    const lTilde = q.whitenedFactor(p);
    this.regulariserValue = regulariser.whitenedValue(mTilde, lTilde, M);
    const value = scale * data + p.beta * this.regulariserValue;
    if (gradient === undefined) return value;
    const { gmu, gv } = this;
    if (hyper) q.whitenedHyperBackward(p, gmu, gv, n, regulariser.covariance, gradient);
    else q.whitenedBackward(gmu, gv, n, regulariser.covariance, gradient);
    regulariser.addWhitenedGradient(mTilde, lTilde, M, p.beta, gradient);
    if (!p.whitened) q.unwhitenGradient(gradient, hyper);
    if (!hyper) {
      gradient.logNoise = 0;
      gradient.meanConstant = 0;
      return value;
    }
    q.choleskyAdjoint();
    q.kernelGradient(p, x, n, gv, gradient);
    gradient.logNoise = scale * this.noise;
    let gc = 0;
    for (let i = 0; i < n; i++) gc += gmu[i];
    gradient.meanConstant = gc;
    return value;
  }
}
