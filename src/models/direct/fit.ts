import { minimizeLbfgs } from '../../optim/lbfgs.js';
import type { ObjectiveFunction } from '../../optim/objective-function.js';
import { Rng } from '../../rng/rng.js';

/** What {@link fitDirect} needs of an objective: its size and the value and gradient to maximise. */
export interface DirectObjective {
  readonly size: number;
  evaluate(logits: Float64Array, gradient?: Float64Array): number;
}

/** Settings of {@link fitDirect}. */
export interface DirectFitSettings {
  /** Number of starts: the warm start, then restarts − 1 seeded random ones. */
  readonly restarts: number;
  readonly seed: number;
  /** L-BFGS iterations per start (paper appendix E: to convergence or 1000). */
  readonly maxIter: number;
}

/** Outcome of {@link fitDirect}: the best start's logits and ELBO, and every start's ELBO. */
export interface DirectFitResult {
  readonly logits: Float64Array;
  readonly elbo: number;
  readonly iterations: number;
  readonly converged: boolean;
  readonly startElbos: number[];
}

/** Standard deviation of the random starts' logits. */
const RANDOM_START_SCALE = 2;

/** Line-search failures after which L-BFGS is restarted (memory cleared) from where it stopped. */
const MAX_RESTARTS_AFTER_LINE_SEARCH = 5;

/**
 * L-BFGS from `start`; a strong-Wolfe line search that gives up (a curvature pair gone stale near a
 * softmax saturation) restarts the method from its last point with fresh memory, within `maxIter`
 * iterations in all, while the objective still improves.
 */
function maximiseFrom(negative: ObjectiveFunction, start: Float64Array, maxIter: number): Omit<DirectFitResult, 'startElbos'> {
  let x = start;
  let iterations = 0;
  let previous = Infinity;
  for (let attempt = 0; ; attempt++) {
    const result = minimizeLbfgs(negative, x, { maxIterations: maxIter - iterations, relativeTolerance: 1e-12, gradientTolerance: 1e-9 });
    iterations += result.iterations;
    x = result.x;
    const done = result.reason !== 'line-search' || attempt === MAX_RESTARTS_AFTER_LINE_SEARCH || iterations >= maxIter || !(result.value < previous);
    previous = result.value;
    if (done) return { logits: x, elbo: -result.value, iterations, converged: result.converged };
  }
}

/**
 * Maximises the ELBO over the softmax logits with L-BFGS (strong-Wolfe), as the authors do, from the
 * warm start (the prior on the first fit, the previous logits afterwards) and, because the mean-field
 * ELBO is multimodal, from restarts − 1 random starts drawn from `Rng.fromSeed(seed)` (logits i.i.d.
 * N(0, 2²)), keeping the best. `initialise`, when given, moves each start before L-BFGS (the model
 * passes CAVI sweeps, which only raise the ELBO). Deterministic given (objective, warm start, settings).
 */
export function fitDirect(objective: DirectObjective, warmStart: Float64Array, settings: DirectFitSettings, initialise?: (logits: Float64Array) => void): DirectFitResult {
  const negative = (x: Float64Array, gradient: Float64Array): number => {
    const value = objective.evaluate(x, gradient);
    for (let i = 0; i < gradient.length; i++) gradient[i] = -gradient[i];
    return -value;
  };
  const rng = Rng.fromSeed(settings.seed);
  const start = warmStart.slice();
  const startElbos: number[] = [];
  let best: DirectFitResult | undefined;
  for (let r = 0; r < settings.restarts; r++) {
    if (r > 0) for (let i = 0; i < start.length; i++) start[i] = RANDOM_START_SCALE * rng.normal();
    if (initialise !== undefined) initialise(start);
    const result = maximiseFrom(negative, start, settings.maxIter);
    startElbos.push(result.elbo);
    if (best === undefined || result.elbo > best.elbo) best = { ...result, startElbos };
  }
  return best as DirectFitResult;
}
