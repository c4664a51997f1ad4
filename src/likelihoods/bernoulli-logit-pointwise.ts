import { logSigmoid } from '../special/log-sigmoid.js';
import { sigmoid } from '../special/sigmoid.js';
import { BernoulliLogitGaussHermite } from './bernoulli-logit-gauss-hermite.js';
import type { MeanVarianceGradient } from './likelihood.js';
import { logitLabelSign } from './logit-label-sign.js';
import type { PointwiseLikelihood } from './pointwise-likelihood.js';

/**
 * Bernoulli-logit p(y | f) = σ(s f), s = ±1 from a 0/1 or ±1 label, as a {@link PointwiseLikelihood}
 * for the sampled DLM estimators (bMC, uPS): log σ(s f), its f-derivative s·σ(−s f), maximum 1 at
 * f → s·∞. Its Gaussian expectations delegate to {@link BernoulliLogitGaussHermite} (exact up to
 * quadrature error).
 */
export class BernoulliLogitPointwise implements PointwiseLikelihood {
  readonly name = 'bernoulli-logit';
  private readonly quadrature = new BernoulliLogitGaussHermite();

  expectedLogProb(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    return this.quadrature.expectedLogProb(y, m, v, gradient);
  }

  logMarginal(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    return this.quadrature.logMarginal(y, m, v, gradient);
  }

  logDensity(y: number, f: number): number {
    return logSigmoid(logitLabelSign(y) * f);
  }

  logDensityDerivative(y: number, f: number): number {
    const s = logitLabelSign(y);
    return s * sigmoid(-s * f);
  }

  logMaxDensity(): number {
    return 0;
  }

  mode(y: number): number {
    return logitLabelSign(y) * Infinity;
  }
}
