import { gaussHermite } from '../../special/gauss-hermite.js';
import { stableShape } from '../../core/stable-shape.js';

/** A Gauss–Hermite rule with the logs of its weights and per-node scratch, for {@link quadratureTiltedMoments}. */
export interface QuadratureScratch {
  readonly nodes: Float64Array;
  /** ln(wᵢ/√π): the rule as an expectation under N(0, 1) after the change of variable f = μ + √2·s·xᵢ. */
  readonly logWeights: Float64Array;
  readonly logTerms: Float64Array;
  readonly slopes: Float64Array;
  readonly curvatures: Float64Array;
  /** ℓ, ℓ′, ℓ″ at one point. */
  readonly point: Float64Array;
}

/** Scratch for an `n`-node rule. */
export function quadratureScratch(n: number): QuadratureScratch {
  const rule = gaussHermite(n);
  const halfLogPi = 0.5 * Math.log(Math.PI);
  return stableShape({
    nodes: rule.nodes, logWeights: rule.weights.map((w) => Math.log(w) - halfLogPi),
    logTerms: new Float64Array(n), slopes: new Float64Array(n), curvatures: new Float64Array(n), point: new Float64Array(3),
  });
}
