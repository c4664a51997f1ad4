import { Rng } from '../../rng/rng.js';
import { fitDirect } from './fit.js';
import { fitDirectMixture } from './mixture-fit.js';
import type { DirectMixtureElbo } from './mixture-objective.js';
import type { DirectFitDiagnostics, DirectState } from './state.js';
import type { DirectWorkspace } from './workspace.js';

/** A fitted q: mean-field logits, mixture parameters (empty for mean field) and how the fit went. */
export interface DirectQFit {
  readonly logits: Float64Array;
  readonly mixture: Float64Array;
  readonly diagnostics: DirectFitDiagnostics;
}

/** Standard deviation of the perturbation of the mean-field logits that starts each mixture component. */
const MIXTURE_PERTURBATION = 1;

/** Largest gap below a row's top logit in the mixture's start. */
const LOGIT_FLOOR = 40;

/**
 * The paper's start of the mixture fit (appendix E): every component is the mean-field solution
 * `logits` with its weight logits perturbed by N(0, 1) draws (seeded; unperturbed when `perturb` is
 * false, which is the mean-field q itself, whose Theorem-3 bound is its exact ELBO), equal mixture
 * weights, the Taylor centre at the mean-field solution. Logits are floored at 40 below their row's
 * largest, so every atom keeps a positive probability (Theorem 3 divides by a).
 */
function mixtureStart(state: DirectState, objective: DirectMixtureElbo, logits: Float64Array, perturb: boolean): Float64Array {
  const { b, mbar } = state.grid;
  const bm = b * mbar;
  const floored = logits.slice(0, bm);
  for (let j = 0; j < b; j++) {
    let max = -Infinity;
    for (let m = 0; m < mbar; m++) max = Math.max(max, floored[j * mbar + m]);
    for (let m = 0; m < mbar; m++) floored[j * mbar + m] = Math.max(floored[j * mbar + m], max - LOGIT_FLOOR);
  }
  const start = new Float64Array(objective.size);
  const rng = Rng.fromSeed(state.settings.seed).split();
  for (let k = 0; k < objective.components; k++) for (let i = 0; i < bm; i++) start[k * bm + i] = floored[i] + (perturb ? MIXTURE_PERTURBATION * rng.normal() : 0);
  start.set(floored, objective.centreOffset);
  start.set(logits.subarray(bm), objective.noiseOffset);
  return start;
}

/**
 * Fits q to the state's statistics without touching the state (the workspace's objectives are the
 * scratch): L-BFGS on the Theorem-1 ELBO from the committed logits plus the seeded restarts, each
 * start CAVI-initialised when `caviSweeps` > 0; then, with components > 1, Adam on the Theorem-3
 * bound from perturbed copies of that solution, keeping the mean-field q itself if the steps never
 * beat it. Deterministic given the state.
 */
export function fitDirectQ(state: DirectState, workspace: DirectWorkspace): DirectQFit {
  const { settings } = state;
  const sweeps = settings.caviSweeps;
  const result = fitDirect(workspace.elbo, state.logits, settings, sweeps > 0 ? (start) => workspace.cavi.run(start, sweeps) : undefined);
  const diagnostics = { iterations: result.iterations, converged: result.converged, startElbos: result.startElbos };
  const objective = workspace.mixture;
  if (objective === undefined) return { logits: result.logits, mixture: new Float64Array(0), diagnostics };
  const fit = fitDirectMixture(objective, mixtureStart(state, objective, result.logits, true), {
    steps: settings.mixtureSteps, learningRate: settings.mixtureLearningRate, entropy: settings.mixtureEntropy, samples: settings.entropySamples, seed: settings.seed,
  });
  const embedded = mixtureStart(state, objective, result.logits, false);
  return { logits: result.logits, mixture: fit.elbo >= objective.evaluate(embedded) ? fit.params : embedded, diagnostics };
}
