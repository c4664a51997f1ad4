import { Rng } from '../../rng/rng.js';
import type { DirectBnnPosterior } from './bnn-posterior.js';
import type { DirectBnnState } from './bnn-state.js';
import type { DirectBnnWorkspace } from './bnn-workspace.js';
import { evaluateDirectBnn } from './bnn-evaluate-posterior.js';
import { labelVarianceNoiseLogits } from './bnn-label-variance-noise.js';
import { tiltedPrior } from './bnn-tilted-prior.js';
import { fitDirect } from './fit.js';

/**
 * Fits q to the state's statistics without touching the state: L-BFGS on the exact ELBO
 * (`DirectBnnElbo`; `fitDirect`, shared with `direct`) from the committed logits and from
 * restarts − 1 seeded tilted priors (`tiltedPrior`, scale max(initScale, 1)); every start's q(σ²)
 * is first moved to the labels' variance (`labelVarianceNoiseLogits`). Keeps the best start and
 * evaluates the posterior there. Deterministic given the state.
 */
export function fitDirectBnn(state: DirectBnnState, workspace: DirectBnnWorkspace): DirectBnnPosterior {
  const { grid, settings } = state;
  const rng = Rng.fromSeed(settings.seed).split();
  let starts = 0;
  const result = fitDirect(workspace.elbo, state.logits, settings, (start) => {
    if (starts++ > 0) tiltedPrior(grid, rng, Math.max(settings.initScale, 1), start);
    labelVarianceNoiseLogits(grid, state.stats, start);
  });
  return evaluateDirectBnn(state, workspace, result.logits, { iterations: result.iterations, converged: result.converged, startElbos: result.startElbos });
}
