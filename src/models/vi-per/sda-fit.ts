import { NumericalError } from '../../core/numerical-error.js';
import { minimizeLbfgs } from '../../optim/lbfgs.js';
import type { GaussianPrior } from './gaussian-prior.js';
import type { ViPerSettings } from './settings.js';
import type { ViPerWorkspace } from './workspace.js';

/**
 * L-BFGS on F (eq. 11) for the records 0 … n − 1 of `x` (row-major, d per record), labels ±1 in `y`,
 * `weights` optional, with `prior` as the prior, started from N(mu, LLᵀ) (L = `factor`), in the
 * covariance form of `fitter.objective` (`fitter.params` its packed scratch: the workspace's own, or
 * its full-covariance `fold`); the optimum is written over `mu` and `factor`. Returns F there and the
 * iterations. A non-finite objective throws `NumericalError`.
 */
export function sdaFit(family: string, settings: ViPerSettings, fitter: ViPerWorkspace['fold'], prior: GaussianPrior, mu: Float64Array, factor: Float64Array,
  x: Float64Array, y: Float64Array, n: number, weights: Float64Array | undefined): { objective: number; iterations: number } {
  const { objective, params } = fitter;
  objective.pack(mu, factor, params);
  const result = minimizeLbfgs((p, g) => {
    const f = objective.evaluate(p, g, x, y, n, weights, 1, prior);
    for (let i = 0; i < g.length; i++) g[i] = -g[i];
    return -f;
  }, params, { relativeTolerance: settings.tol, maxIterations: settings.maxIter });
  if (!Number.isFinite(result.value) || !result.x.every(Number.isFinite)) {
    throw new NumericalError(`${family}: the objective became non-finite (${result.value}) during the fit`, { field: 'objective', value: result.value });
  }
  objective.unpack(result.x, mu, factor);
  return { objective: -result.value, iterations: result.iterations };
}
