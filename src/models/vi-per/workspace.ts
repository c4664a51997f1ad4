import { BernoulliLogitGaussHermite } from '../../likelihoods/bernoulli-logit-gauss-hermite.js';
import { bernoulliLogit } from '../../likelihoods/bernoulli-logit.js';
import type { MeanVarianceGradient } from '../../likelihoods/likelihood.js';
import { gaussianPriorFromFactor, type GaussianPrior } from './gaussian-prior.js';
import { GaussianLogitObjective, packedLength } from './objective.js';
import type { ViPerState } from './state.js';

/**
 * What a vi-per model reuses between calls: its prior in the form the KL needs (fixed for the
 * model's life), the objective with its evaluator (for `monte-carlo` under `sda`, the draws seeded by
 * `seed` and held fixed, so every fit is a deterministic sample-average problem), the 100-node
 * Gauss–Hermite rule of `predict`, and scratch.
 */
export interface ViPerWorkspace {
  readonly prior: GaussianPrior;
  readonly objective: GaussianLogitObjective;
  /** Packed (μ, L) and its gradient. */
  readonly params: Float64Array;
  /**
   * The objective and packed scratch of the `sda` fold (records leaving the replay buffer into q_a):
   * full covariance whatever q's form, so a mean-field model's q_a keeps the correlations of the
   * records it holds (the objective and params above for a full-covariance model).
   */
  readonly fold: { readonly objective: GaussianLogitObjective; readonly params: Float64Array };
  readonly gradient: Float64Array;
  readonly quadrature: BernoulliLogitGaussHermite;
  /** Standard normals of `sample`. */
  readonly z: Float64Array;
  /** Labels as ±1. */
  labels: Float64Array;
  /**
   * Scratch of natural-gradient SVI and of the `natural` refits: ĝ (d), Ĝ, Σ⁻¹, a factor, Σ (d×d each), a d-vector, the
   * evaluator's partials, and the q before a refit's last step (μ, L).
   */
  readonly natural: {
    readonly gMu: Float64Array; readonly gSigma: Float64Array; readonly precision: Float64Array; readonly work: Float64Array;
    readonly sigma: Float64Array; readonly u: Float64Array; readonly rowGradient: MeanVarianceGradient;
    readonly previousMu: Float64Array; readonly previousFactor: Float64Array;
  };
}

/** A workspace for a model with this state. */
export function viPerWorkspace(state: ViPerState): ViPerWorkspace {
  const { dim: d, settings } = state;
  const size = packedLength(d, settings.covariance);
  const objective = new GaussianLogitObjective(d, settings.covariance, bernoulliLogit(settings.method, settings));
  const params = new Float64Array(size);
  return {
    prior: gaussianPriorFromFactor(state.priorMean, state.priorFactor, d),
    objective, params, gradient: new Float64Array(size),
    fold: settings.covariance === 'full' ? { objective, params }
      : { objective: new GaussianLogitObjective(d, 'full', bernoulliLogit(settings.method, settings)), params: new Float64Array(packedLength(d, 'full')) },
    quadrature: new BernoulliLogitGaussHermite(100), z: new Float64Array(d), labels: new Float64Array(0),
    natural: {
      gMu: new Float64Array(d), gSigma: new Float64Array(d * d), precision: new Float64Array(d * d), work: new Float64Array(d * d),
      sigma: new Float64Array(d * d), u: new Float64Array(d), rowGradient: { dm: 0, dv: 0 },
      previousMu: new Float64Array(d), previousFactor: new Float64Array(d * d),
    },
  };
}
