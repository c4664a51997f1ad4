import type { MeanVarianceGradient } from './likelihood.js';
import type { PointwiseLikelihood } from './pointwise-likelihood.js';

const LOG_2PI = 1.8378770664093456;

/**
 * Gaussian likelihood p(y | f) = N(y; f, σ²), closed forms under q(f) = N(m, v) (Wei, Sheth &
 * Khardon 2021, eq. 4 and §4): E_q[log p] = −½log(2πσ²) − ((y − m)² + v)/(2σ²) and
 * log E_q[p] = log N(y; m, v + σ²). `noiseVariance` is mutable: the sparse GP learns it.
 */
export class GaussianLikelihood implements PointwiseLikelihood {
  readonly name = 'gaussian';

  constructor(public noiseVariance = 1) {}

  expectedLogProb(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    const s2 = this.noiseVariance;
    const r = y - m;
    if (gradient !== undefined) {
      gradient.dm = r / s2;
      gradient.dv = -0.5 / s2;
    }
    return -0.5 * (LOG_2PI + Math.log(s2)) - (r * r + v) / (2 * s2);
  }

  /** ∂ E_q[log p] / ∂ log σ² = −½ + ((y − m)² + v)/(2σ²). */
  expectedLogProbNoiseGradient(y: number, m: number, v: number): number {
    const r = y - m;
    return -0.5 + (r * r + v) / (2 * this.noiseVariance);
  }

  logMarginal(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    const t = v + this.noiseVariance;
    const r = y - m;
    if (gradient !== undefined) {
      gradient.dm = r / t;
      gradient.dv = -0.5 / t + (0.5 * r * r) / (t * t);
    }
    return -0.5 * (LOG_2PI + Math.log(t) + (r * r) / t);
  }

  /** ∂ log E_q[p] / ∂ log σ² = σ²·∂/∂v, since the term depends on v + σ² only. */
  logMarginalNoiseGradient(y: number, m: number, v: number): number {
    const t = v + this.noiseVariance;
    const r = y - m;
    return this.noiseVariance * (-0.5 / t + (0.5 * r * r) / (t * t));
  }

  logDensity(y: number, f: number): number {
    const r = y - f;
    return -0.5 * (LOG_2PI + Math.log(this.noiseVariance) + (r * r) / this.noiseVariance);
  }

  logDensityDerivative(y: number, f: number): number {
    return (y - f) / this.noiseVariance;
  }

  logMaxDensity(): number {
    return -0.5 * (LOG_2PI + Math.log(this.noiseVariance));
  }

  mode(y: number): number {
    return y;
  }
}
