import { Rng } from '../../rng/rng.js';
import type { DirectBnnPosterior } from './bnn-posterior.js';
import type { DirectBnnState } from './bnn-state.js';
import type { DirectBnnWorkspace } from './bnn-workspace.js';
import { evaluateDirectBnn } from './bnn-evaluate-posterior.js';
import { labelVarianceNoiseLogits } from './bnn-label-variance-noise.js';
import { tiltedPrior } from './bnn-tilted-prior.js';
import { fitDirect } from './fit.js';

/**
 * Fits q to the state's statistics without touching the state. Starts: the committed logits, then
 * restarts − 1 seeded tilted priors (`tiltedPrior`, scale max(initScale, 1)); each start's q(σ²) is
 * first moved to the labels' variance (`labelVarianceNoiseLogits`), then L-BFGS (`fitDirect`, shared
 * with `direct`) maximises the entropy-tempered ELBO at each of `temperatures` in turn
 * (`TemperedDirectBnnElbo`) and finally the exact ELBO (`DirectBnnElbo`), as the paper, each stage
 * capped at maxIter. Keeps the start of highest exact ELBO; `iterations` counts every stage of every
 * start. Deterministic given the state.
 */
export function fitDirectBnn(state: DirectBnnState, workspace: DirectBnnWorkspace): DirectBnnPosterior {
  const { grid, settings } = state;
  const rng = Rng.fromSeed(settings.seed).split();
  const one = { restarts: 1, seed: settings.seed, maxIter: settings.maxIter };
  const startElbos: number[] = [];
  let iterations = 0;
  let best: { logits: Float64Array; elbo: number; converged: boolean } | undefined;
  for (let r = 0; r < settings.restarts; r++) {
    let start: Float64Array = state.logits.slice();
    if (r > 0) tiltedPrior(grid, rng, Math.max(settings.initScale, 1), start);
    labelVarianceNoiseLogits(grid, state.stats, start);
    for (const temperature of settings.temperatures) {
      workspace.tempered.temperature = temperature;
      const stage = fitDirect(workspace.tempered, start, one);
      iterations += stage.iterations;
      start = stage.logits;
    }
    const result = fitDirect(workspace.elbo, start, one);
    iterations += result.iterations;
    startElbos.push(result.elbo);
    if (best === undefined || result.elbo > best.elbo) best = result;
  }
  const fit = best as { logits: Float64Array; converged: boolean };
  return evaluateDirectBnn(state, workspace, fit.logits, { iterations, converged: fit.converged, startElbos });
}
