import { quadratureScratch, type QuadratureScratch } from './quadrature-scratch.js';
import { stableShape } from '../../core/stable-shape.js';

/**
 * Gauss–Hermite rules smaller than the model's, each with the largest projection variance s² at
 * which the mode-centred logistic rule ({@link logitTilt}) of that size still agrees with a 160-node
 * rule to 1e-10 relative in α, ν and log Z for every μ in [−40, 40] and both labels (measured
 * worst: 1.6e-12 at 6 nodes and s² = 0.02, 9.2e-13, 9.5e-12, 1.6e-12, 5.6e-12, 2.3e-11
 * for the others at their bound; test/models/adf-logit-tilt.test.ts checks 1e-9). A narrow
 * projection, the usual case once a few hundred records are in, needs few nodes; below s² = 0.005
 * the closed-form series takes over (`logitTiltFor`), where 3 and 4 nodes were enough.
 */
const LADDER: readonly (readonly [nodes: number, maxVariance: number])[] = [
  [5, 0.01], [6, 0.02], [8, 0.05], [10, 0.1], [12, 0.2], [16, 0.3], [20, 0.5], [24, 0.75],
];

/** The rules of {@link LADDER} smaller than the model's `nodes`, then the model's own rule (for every wider projection). */
export interface LogitRules {
  readonly maxVariance: Float64Array;
  readonly rules: readonly QuadratureScratch[];
}

/** The ladder for a model whose own rule has `nodes` nodes (used alone when it is no larger than a rung). */
export function logitRules(nodes: number): LogitRules {
  const rungs = LADDER.filter(([size]) => size < nodes);
  return stableShape({
    maxVariance: Float64Array.from([...rungs.map(([, variance]) => variance), Infinity]),
    rules: [...rungs.map(([size]) => quadratureScratch(size)), quadratureScratch(nodes)],
  });
}

/** The smallest rule of `rules` that is exact enough at projection variance `s2`. */
export function logitRuleFor(rules: LogitRules, s2: number): QuadratureScratch {
  let k = 0;
  while (s2 > rules.maxVariance[k]) k++;
  return rules.rules[k];
}
