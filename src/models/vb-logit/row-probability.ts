import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import type { GaussianPosterior } from '../../gaussian/gaussian-posterior.js';
import type { JaakkolaJordanRow } from '../../likelihoods/jaakkola-jordan-row.js';
import { jaakkolaJordanRowFit } from '../../likelihoods/jaakkola-jordan-row-fit.js';

/** Settings of the predictive ξ iteration (reference: tol 1e-5, 500 steps). */
export interface XiIterationSettings {
  readonly tol: number;
  readonly maxIter: number;
}

/**
 * p(y = 1 | x, data) from the variational lower bound of ∫σ(wᵀx)N(w | w_N, V_N)dw with its own ξ
 * (Drugowitsch §3.3, eq. 64–68 and 96–98; VBLinLogit vb_logit_pred_incr, one row at a time), leaving
 * xᵀVx in `row.c`. `vx` (length d) and `row` are scratch space.
 */
export function vbLogitRowProbability(posterior: GaussianPosterior, d: number, x: Float64Array, offset: number, settings: XiIterationSettings, vx: Float64Array, row: JaakkolaJordanRow): number {
  gemv(posterior.V, d, d, x, vx, 1, 0, offset);
  const c = dot(vx, x, d, 0, offset);
  const xw = dot(posterior.w, x, d, 0, offset);
  jaakkolaJordanRowFit(row, c, xw, 1, posterior.q, 0, settings.tol, settings.maxIter);
  return Math.exp(row.logPredictive(posterior.q));
}
