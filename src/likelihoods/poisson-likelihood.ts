import { gaussHermite } from '../special/gauss-hermite.js';
import { lgamma } from '../special/lgamma.js';
import type { MeanVarianceGradient } from './likelihood.js';
import type { PointwiseLikelihood } from './pointwise-likelihood.js';

/**
 * Poisson likelihood with log link, p(y | f) = exp(y f − eᶠ)/y!. `expectedLogProb` is exact:
 * E_q[log p] = y m − e^{m+v/2} − log y!. `logMarginal` = log E_q[p] by Gauss–Hermite with `nodes`
 * points (default 100) summed in log space, with ∂/∂m, ∂/∂v from the normalised node weights
 * ρ_k ∝ w_k p(y | f_k) (reference README §2).
 */
export class PoissonLikelihood implements PointwiseLikelihood {
  readonly name = 'poisson';
  private readonly rule: { readonly nodes: Float64Array; readonly weights: Float64Array };
  private readonly logWeights: Float64Array;
  private readonly terms: Float64Array;

  constructor(nodes = 100) {
    this.rule = gaussHermite(nodes);
    this.logWeights = this.rule.weights.map((w) => Math.log(w / Math.sqrt(Math.PI)));
    this.terms = new Float64Array(nodes);
  }

  expectedLogProb(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    const rate = Math.exp(m + 0.5 * v);
    if (gradient !== undefined) {
      gradient.dm = y - rate;
      gradient.dv = -0.5 * rate;
    }
    return y * m - rate - lgamma(y + 1);
  }

  logMarginal(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    const { nodes } = this.rule;
    const scale = Math.sqrt(2 * v);
    const logFactorial = lgamma(y + 1);
    let max = -Infinity;
    for (let k = 0; k < nodes.length; k++) {
      const f = m + scale * nodes[k];
      const t = this.logWeights[k] + y * f - Math.exp(f) - logFactorial;
      this.terms[k] = t;
      if (t > max) max = t;
    }
    let sum = 0;
    let dm = 0;
    let dx = 0;
    for (let k = 0; k < nodes.length; k++) {
      const rho = Math.exp(this.terms[k] - max);
      sum += rho;
      if (gradient !== undefined) {
        const score = y - Math.exp(m + scale * nodes[k]);
        dm += rho * score;
        dx += rho * score * nodes[k];
      }
    }
    if (gradient !== undefined) {
      gradient.dm = dm / sum;
      gradient.dv = scale > 0 ? dx / sum / scale : -0.5 * Math.exp(m) + 0.5 * (y - Math.exp(m)) ** 2;
    }
    return max + Math.log(sum);
  }

  logDensity(y: number, f: number): number {
    return y * f - Math.exp(f) - lgamma(y + 1);
  }

  logDensityDerivative(y: number, f: number): number {
    return y - Math.exp(f);
  }

  logMaxDensity(y: number): number {
    return y > 0 ? y * Math.log(y) - y - lgamma(y + 1) : 0;
  }

  mode(y: number): number {
    return y > 0 ? Math.log(y) : -Infinity;
  }
}
