import { Adam } from '../../optim/adam.js';
import { Rng } from '../../rng/rng.js';
import type { DirectMixtureElbo } from './mixture-objective.js';

/** Settings of {@link fitDirectMixture}. */
export interface DirectMixtureFitSettings {
  /** Adam steps. */
  readonly steps: number;
  readonly learningRate: number;
  /** 'stochastic': eq. (11) entropy gradient from `samples` draws; 'bound': the Theorem-3 bound's exact gradient. */
  readonly entropy: 'stochastic' | 'bound';
  readonly samples: number;
  readonly seed: number;
}

/** Outcome of {@link fitDirectMixture}: the parameters with the best bound seen and that bound. */
export interface DirectMixtureFitResult {
  readonly params: Float64Array;
  readonly elbo: number;
  readonly steps: number;
}

/**
 * Maximises the mixture ELBO with Adam (a stochastic gradient suits the eq. 11 estimator; the paper
 * uses SGD), from `start`, for `steps` steps; the draws come from `Rng.fromSeed(seed)`. Every step
 * evaluates the Theorem-3 bound exactly, and the parameters with the best bound are returned, so the
 * result is never below the start's bound. Deterministic given (objective, start, settings).
 */
export function fitDirectMixture(objective: DirectMixtureElbo, start: Float64Array, settings: DirectMixtureFitSettings): DirectMixtureFitResult {
  const params = start.slice();
  const gradient = new Float64Array(objective.size);
  const adam = new Adam(objective.size, { learningRate: settings.learningRate });
  const rng = settings.entropy === 'stochastic' ? Rng.fromSeed(settings.seed) : undefined;
  const best = start.slice();
  let bestValue = -Infinity;
  for (let step = 0; step <= settings.steps; step++) {
    const value = objective.evaluate(params, step < settings.steps ? gradient : undefined, rng, settings.samples);
    if (value > bestValue) { bestValue = value; best.set(params); }
    if (step === settings.steps) break;
    for (let i = 0; i < gradient.length; i++) gradient[i] = -gradient[i];
    adam.step(params, gradient);
  }
  return { params: best, elbo: bestValue, steps: settings.steps };
}
