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
    this.kl = new InducingKl(M);
    this.meanPenalty = new InducingMeanPenalty(M);
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
   * it (in the evaluated parameterisation); `hyper` adds the kernel, noise, mean and Z gradients.
   */
  evaluate(p: SparseGpParameters, x: Float64Array, y: Float64Array, n: number, objective: SparseGpObjective, scale: number,
    gradient?: SparseGpGradient, hyper = false): number {
    this.ensure(n);
    const regulariser: InducingRegulariser = objective.regulariser === 'kl' ? this.kl : this.meanPenalty;
    if (p.whitened || hyper) return this.evaluateWhitened(p, x, y, n, objective, regulariser, scale, gradient, hyper);
    const q = this.conditional;
    q.marginals(p, x, n);
    const data = this.dataTerm(objective, y, n, scale);
    const reg = regulariser.value(q);
    this.regulariserValue = reg;
    const value = scale * data + p.beta * reg;
    if (gradient === undefined) return value;
    const { gmu, gv } = this;
    q.backward(gmu, gv, n, regulariser.covariance, hyper);
    regulariser.addGradient(q, p.beta);
    if (hyper) {
      q.hyperBackward(gmu, n);
      regulariser.addKuuAdjoint(q, p.beta);
      this.hyperGradient(p, x, n, scale, gradient);
    } else {
      gradient.logNoise = 0;
      gradient.meanConstant = 0;
    }
    q.chainToParameters(gradient);
    return value;
  }

  /** The kernel and Z gradients (after the conditional's K̄uf and K̄uu), the noise and the constant mean. */
  private hyperGradient(p: SparseGpParameters, x: Float64Array, n: number, scale: number, gradient: SparseGpGradient): void {
    const { gmu, gv } = this;
    this.conditional.kernelGradient(p, x, n, gv, gradient);
    gradient.logNoise = scale * this.noise;
    let gc = 0;
    for (let i = 0; i < n; i++) gc += gmu[i];
    gradient.meanConstant = gc;
  }

  /**
   * The whitened objective and its gradient by the conditional's whitened path (no unwhitened q(u)): three
   * O(BM²) passes for (m̃, L̃), four with `hyper` (the kernel, noise, mean and Z too).
   */
  private evaluateWhitened(p: SparseGpParameters, x: Float64Array, y: Float64Array, n: number, objective: SparseGpObjective, regulariser: InducingRegulariser,
    scale: number, gradient: SparseGpGradient | undefined, hyper: boolean): number {
    const { M } = this;
    const q = this.conditional;
    q.whitenedMarginals(p, x, n);
    const data = this.dataTerm(objective, y, n, scale);
    const mTilde = q.whitenedMean(p);
    const lTilde = q.whitenedFactor(p);
    this.regulariserValue = regulariser.whitenedValue(mTilde, lTilde, M);
    const value = scale * data + p.beta * this.regulariserValue;
    if (gradient === undefined) return value;
    if (hyper) q.whitenedHyperBackward(p, this.gmu, this.gv, n, regulariser.covariance, gradient);
    else q.whitenedBackward(this.gmu, this.gv, n, regulariser.covariance, gradient);
    regulariser.addWhitenedGradient(mTilde, lTilde, M, p.beta, gradient);
    if (hyper) {
      if (!p.whitened) q.unwhitenGradient(gradient);
      q.choleskyAdjoint();
      this.hyperGradient(p, x, n, scale, gradient);
    } else {
      gradient.logNoise = 0;
      gradient.meanConstant = 0;
    }
    return value;
  }
}
