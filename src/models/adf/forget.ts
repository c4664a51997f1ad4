import { gemv } from '../../linalg/gemv.js';
import { spdInverse } from '../../linalg/spd-inverse.js';
import type { AdfState } from './state.js';

/**
 * Power prior on the natural parameters: Λ ← γ·V⁻¹ + (1 − γ)·Σ₀⁻¹ and Λw ← γ·V⁻¹w + (1 − γ)·Σ₀⁻¹m₀,
 * then V = Λ⁻¹, w and ln|V| recomputed (three O(d³) inversions); the window's sites, part of that
 * evidence, are scaled by γ alike. γ = 1 leaves q unchanged up to rounding; γ → 0 returns to the prior.
 */
export function forgetAdf(state: AdfState, factor: number): void {
  const d = state.dim;
  const p = state.posterior;
  const work = new Float64Array(d * d);
  const precision = new Float64Array(d * d);
  spdInverse(p.V, d, precision, work, { what: 'posterior covariance V' });
  const priorPrecision = new Float64Array(d * d);
  spdInverse(state.priorCovariance, d, priorPrecision, work, { what: 'prior covariance' });
  const shift = new Float64Array(d);
  gemv(precision, d, d, p.w, shift, factor);
  gemv(priorPrecision, d, d, state.priorMean, shift, 1 - factor, 1);
  for (let k = 0; k < d * d; k++) precision[k] = factor * precision[k] + (1 - factor) * priorPrecision[k];
  p.logDetV = -spdInverse(precision, d, p.V, work, { what: 'forgotten posterior precision' });
  gemv(p.V, d, d, shift, p.w);
  const sites = state.sites;
  for (let j = 0; j < sites.count; j++) {
    sites.precision[j] *= factor;
    sites.shift[j] *= factor;
  }
  sites.rescaled += 1;
}
