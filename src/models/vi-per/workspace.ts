import { BernoulliLogitGaussHermite } from '../../likelihoods/bernoulli-logit-gauss-hermite.js';
import { bernoulliLogit } from '../../likelihoods/bernoulli-logit.js';
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
  readonly gradient: Float64Array;
  readonly quadrature: BernoulliLogitGaussHermite;
  /** Standard normals of `sample`. */
  readonly z: Float64Array;
  /** Labels as ±1. */
  labels: Float64Array;
}

/** A workspace for a model with this state. */
export function viPerWorkspace(state: ViPerState): ViPerWorkspace {
  const { dim: d, settings } = state;
  const size = packedLength(d, settings.covariance);
  return {
    prior: gaussianPriorFromFactor(state.priorMean, state.priorFactor, d),
    objective: new GaussianLogitObjective(d, settings.covariance, bernoulliLogit(settings.method, settings)),
    params: new Float64Array(size), gradient: new Float64Array(size),
    quadrature: new BernoulliLogitGaussHermite(100), z: new Float64Array(d), labels: new Float64Array(0),
  };
}
