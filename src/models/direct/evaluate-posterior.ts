import type { DirectPosterior } from './posterior.js';
import type { DirectQFit } from './q-fit.js';
import type { DirectGrid } from './state.js';
import type { DirectWorkspace } from './workspace.js';
import { zeroAtomMass } from './zero-atom-mass.js';

/**
 * The posterior of a fitted q: for mean field, the Theorem-1 ELBO and the marginals and moments of q
 * at `fit.logits`; for a mixture, the Theorem-3 bound at `fit.mixture` and the marginals and moments
 * of Σ_k π_k q_k (by the law of total variance), with the components. Every array is a copy.
 */
export function evaluateDirectPosterior(grid: DirectGrid, workspace: DirectWorkspace, fit: DirectQFit): DirectPosterior {
  const { b, mbar, support } = grid;
  const diagnostics = { iterations: fit.diagnostics.iterations, converged: fit.diagnostics.converged, startElbos: [...fit.diagnostics.startElbos] };
  const o = workspace.mixture;
  if (o === undefined) {
    const e = workspace.elbo;
    const elbo = e.evaluate(fit.logits);
    return {
      logits: fit.logits.slice(), elbo, probs: e.q.slice(), noiseProbs: e.noiseQ.slice(), mean: e.mean.slice(), variance: e.variance.slice(),
      expectedNoise: e.expectedNoise, sparsity: zeroAtomMass(e.q, support, b), ...diagnostics,
      components: { weights: Float64Array.of(1), probs: e.q.slice(), means: e.mean.slice(), variances: e.variance.slice() },
    };
  }
  const elbo = o.evaluate(fit.mixture);
  const probs = new Float64Array(b * mbar);
  const mean = new Float64Array(b);
  const variance = new Float64Array(b);
  for (let k = 0; k < o.components; k++) {
    const pk = o.weights[k];
    for (let i = 0; i < b * mbar; i++) probs[i] += pk * o.q[k * b * mbar + i];
    for (let j = 0; j < b; j++) {
      const s = o.means[k * b + j];
      mean[j] += pk * s;
      variance[j] += pk * (o.variances[k * b + j] + s * s);
    }
  }
  for (let j = 0; j < b; j++) variance[j] = Math.max(0, variance[j] - mean[j] * mean[j]);
  return {
    logits: fit.logits.slice(), elbo, probs, noiseProbs: o.noiseQ.slice(), mean, variance, expectedNoise: o.expectedNoise, sparsity: zeroAtomMass(probs, support, b),
    ...diagnostics, components: { weights: o.weights.slice(), probs: o.q.slice(), means: o.means.slice(), variances: o.variances.slice() },
  };
}
