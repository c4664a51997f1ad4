import { cholesky } from '../../linalg/cholesky.js';
import { choleskyInverse } from '../../linalg/cholesky-inverse.js';
import { rowVariance } from './row-variance.js';
import type { ViPerState } from './state.js';
import type { ViPerWorkspace } from './workspace.js';

/**
 * Folds the buffer's oldest `count` records into q_a as Gaussian sites frozen at the current q (full
 * covariance): record i, with ∂ₘ, ∂ᵥ the evaluator's partials at θᵢ = xᵢᵀμ, τᵢ² = xᵢᵀΣxᵢ, adds
 * precision hᵢxᵢxᵢᵀ, hᵢ = −2wᵢ∂ᵥ ≥ 0, and shift (wᵢ∂ₘ + hᵢθᵢ)xᵢ to q_a's natural parameters: the
 * quadratic in xᵢᵀβ whose expectation under q has the record's value slopes in θᵢ and τᵢ², so q
 * stays the fixed point of F on the remaining buffer with the new q_a as the prior. O(d²) per record
 * and O(d³) once; the records are then dropped from the buffer.
 */
export function foldSites(family: string, state: ViPerState, workspace: ViPerWorkspace, count: number): void {
  const { dim: d, mu, factor, anchorMean, anchorFactor, bufferX: x, bufferY: y, bufferWeights: weights, buffered } = state;
  const likelihood = workspace.objective.likelihood;
  const { gMu: shift, precision, work, sigma, u, rowGradient: g } = workspace.natural;
  choleskyInverse(anchorFactor, d, precision);
  for (let a = 0; a < d; a++) {
    let sum = 0;
    for (let b = 0; b < d; b++) sum += precision[a * d + b] * anchorMean[b];
    shift[a] = sum;
  }
  for (let r = 0; r < count; r++) {
    const base = r * d;
    let theta = 0;
    for (let a = 0; a < d; a++) theta += x[base + a] * mu[a];
    const tau2 = rowVariance(factor, d, x, base, u);
    likelihood.expectedLogProb(y[r], theta, tau2, g);
    const h = Math.max(0, -2 * weights[r] * g.dv);
    const s = weights[r] * g.dm + h * theta;
    for (let a = 0; a < d; a++) {
      const xa = x[base + a];
      shift[a] += s * xa;
      const hx = h * xa;
      for (let b = 0; b <= a; b++) precision[a * d + b] += hx * x[base + b];
    }
  }
  for (let a = 0; a < d; a++) for (let b = a + 1; b < d; b++) precision[a * d + b] = precision[b * d + a];
  cholesky(precision, d, work, { maxTries: 0, what: `${family} q_a precision` });
  choleskyInverse(work, d, sigma);
  cholesky(sigma, d, anchorFactor, { maxTries: 0, what: `${family} q_a covariance` });
  for (let a = 0; a < d; a++) {
    let sum = 0;
    for (let b = 0; b < d; b++) sum += sigma[a * d + b] * shift[b];
    anchorMean[a] = sum;
  }
  x.copyWithin(0, count * d, buffered * d);
  y.copyWithin(0, count, buffered);
  weights.copyWithin(0, count, buffered);
  state.buffered -= count;
}
