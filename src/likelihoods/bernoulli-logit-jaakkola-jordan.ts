import { jaakkolaJordanLambda } from '../special/jaakkola-jordan-lambda.js';
import { logSigmoid } from '../special/log-sigmoid.js';
import { jaakkolaJordanXi } from './jaakkola-jordan-xi.js';
import type { GaussianExpectationLikelihood, MeanVarianceGradient } from './likelihood.js';
import { logitLabelSign } from './logit-label-sign.js';

const XI_TOLERANCE = 1e-12;
const XI_MAX_ITERATIONS = 200;

/**
 * Bernoulli-logit through the Jaakkola–Jordan bound log σ(u) ≥ log σ(ξ) + (u − ξ)/2 − λ(ξ)(u² − ξ²),
 * λ(ξ) = tanh(ξ/2)/(4ξ) — the bound whose CAVI fixed point is also Pólya–gamma VB (Durante & Rigon).
 * Labels 0/1 or ±1.
 *
 * - `expectedLogProb`: a **lower bound** on E[log σ(s f)], f ~ N(m, v), at its optimal ξ² = m² + v:
 *   log σ(ξ) + (s·m − ξ)/2; gradient (envelope theorem) dm = s/2 − 2λm, dv = −λ.
 * - `logMarginal`: a **lower bound** on log E[σ(s f)]: the Gaussian integral of the bound,
 *   log σ(ξ) − ξ/2 + λξ² − ½log(1 + 2λv) + (s·m + v/4 − 2λm²)/(2(1 + 2λv)), with ξ at its fixed
 *   point ξ² = E[u²] under the tilted Gaussian (iterated to 1e-12); gradient at fixed ξ (envelope).
 */
export class BernoulliLogitJaakkolaJordan implements GaussianExpectationLikelihood {
  readonly name = 'bernoulli-logit-jj';

  expectedLogProb(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    const s = logitLabelSign(y);
    const xi = jaakkolaJordanXi(m, v);
    if (gradient !== undefined) {
      const lambda = jaakkolaJordanLambda(xi);
      gradient.dm = 0.5 * s - 2 * lambda * m;
      gradient.dv = -lambda;
    }
    return logSigmoid(xi) + 0.5 * (s * m - xi);
  }

  logMarginal(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    const s = logitLabelSign(y);
    let xi = jaakkolaJordanXi(m, v);
    let lambda = jaakkolaJordanLambda(xi);
    for (let iteration = 0; iteration < XI_MAX_ITERATIONS; iteration++) {
      const c = 1 + 2 * lambda * v;
      const mean = (m + 0.5 * s * v) / c;
      const next = jaakkolaJordanXi(mean, v / c);
      lambda = jaakkolaJordanLambda(next);
      const change = Math.abs(next - xi);
      xi = next;
      if (change <= XI_TOLERANCE * Math.max(1, xi)) break;
    }
    const c = 1 + 2 * lambda * v;
    const q = s * m + 0.25 * v - 2 * lambda * m * m;
    if (gradient !== undefined) {
      gradient.dm = (s - 4 * lambda * m) / (2 * c);
      gradient.dv = -lambda / c + (0.25 * c - 2 * lambda * q) / (2 * c * c);
    }
    return logSigmoid(xi) - 0.5 * xi + lambda * xi * xi - 0.5 * Math.log(c) + q / (2 * c);
  }
}
