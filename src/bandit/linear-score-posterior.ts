import type { OnlineModel } from '../core/online-model.js';
import { VbLinearModel } from '../models/vb-linear/family.js';
import { VbLogitOnlineModel } from '../models/vb-logit/online-family.js';

/**
 * A live, read-only view of a posterior over linear weights that is Gaussian given a precision
 * scale: w | τ ~ N(mean, covariance/τ), with τ ~ Gam(precisionShape, precisionRate) (vb-linear's
 * normal-inverse-gamma q(w, τ), eq. 6) or τ ≡ 1 (`precisionShape` Infinity: a Gaussian posterior, as
 * vb-logit-online's). Every score xᵀw is then a 1-D normal (given τ) of mean xᵀmean and variance
 * xᵀ·covariance·x/τ, and the K scores of one shared model are jointly normal — what lets Thompson
 * sampling draw scores instead of d-dimensional weights. Only the covariance's upper triangle is read.
 */
export interface LinearScorePosterior {
  readonly mean: Float64Array;
  readonly covariance: Float64Array;
  readonly precisionShape: number;
  readonly precisionRate: number;
}

/** The score view of a model whose family has one (vb-logit-online, vb-linear, vb-linear-ard); undefined otherwise. */
export function linearScorePosterior(model: OnlineModel): LinearScorePosterior | undefined {
  if (model instanceof VbLogitOnlineModel) {
    const posterior = model.posterior;
    return { mean: posterior.w, covariance: posterior.V, precisionShape: Infinity, precisionRate: 1 };
  }
  if (model instanceof VbLinearModel) {
    const posterior = model.weightPosterior;
    return {
      mean: posterior.w, covariance: posterior.V,
      get precisionShape() { return posterior.an; },
      get precisionRate() { return posterior.bn; },
    };
  }
  return undefined;
}
