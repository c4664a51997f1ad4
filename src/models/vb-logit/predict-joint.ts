import { NumericalError } from '../../core/numerical-error.js';
import { dot } from '../../linalg/dot.js';
import { gemv } from '../../linalg/gemv.js';
import type { GaussianPosterior } from '../../gaussian/gaussian-posterior.js';
import { JaakkolaJordanRow } from '../../likelihoods/jaakkola-jordan-row.js';
import type { XiIterationSettings } from './row-probability.js';

/**
 * VBLinLogit's vectorised vb_logit_pred: the same bound as {@link predictVbLogitRow}, but all rows'
 * ξ are iterated together and stop together when the summed bound changes by less than tol·|L|,
 * so each value depends slightly on the other rows (up to ~1e-5). Returns p(y = 1) per row.
 */
export function predictVbLogitJoint(posterior: GaussianPosterior, d: number, x: Float64Array, n: number, settings: XiIterationSettings): Float64Array {
  const rows = Array.from({ length: n }, () => new JaakkolaJordanRow());
  const vx = new Float64Array(d);
  let last = 0;
  for (let r = 0; r < n; r++) {
    gemv(posterior.V, d, d, x, vx, 1, 0, r * d);
    last += rows[r].reset(dot(vx, x, d, 0, r * d), dot(posterior.w, x, d, 0, r * d), 1, posterior.q);
  }
  for (let i = 1; i <= settings.maxIter; i++) {
    let bound = 0;
    for (const row of rows) bound += row.step();
    if (last > bound) {
      if (last - bound > 1e-10 * Math.abs(bound)) throw new NumericalError(`summed predictive bound decreased from ${last} to ${bound}`, { field: 'xi' });
      break;
    }
    if (Math.abs(last - bound) < Math.abs(settings.tol * bound)) break;
    last = bound;
  }
  return Float64Array.from(rows, (row) => Math.exp(row.logPredictive(posterior.q)));
}
