import { gaussHermite } from '../special/gauss-hermite.js';
import { logNormalCdf } from '../special/log-normal-cdf.js';
import { normalLogPdf } from '../special/normal-log-pdf.js';
import type { MeanVarianceGradient } from './likelihood.js';
import type { PointwiseLikelihood } from './pointwise-likelihood.js';

/** Inverse Mills ratio λ(z) = φ(z)/Φ(z), through logs so that it stays finite far in the lower tail. */
function millsRatio(z: number): number {
  return Math.exp(normalLogPdf(z, 0, 1) - logNormalCdf(z));
}

/**
 * Bernoulli-probit likelihood p(y | f) = Φ(σ_y f), σ_y = 2y − 1, labels 0/1 (or −1/1).
 * `logMarginal` is exact: log E_q[Φ(σ_y f)] = log Φ(σ_y m/√(1 + v)) (Wei, Sheth & Khardon 2021,
 * §4); `expectedLogProb` uses Gauss–Hermite with `nodes` points (default 100, the reference's rule):
 * E_q[g(f)] ≈ Σ_k (w_k/√π)·g(m + √(2v)·x_k), ∂/∂v = Σ_k (w_k/√π) g'(f_k) x_k/√(2v).
 */
export class BernoulliProbitLikelihood implements PointwiseLikelihood {
  readonly name = 'bernoulli-probit';
  private readonly rule: { readonly nodes: Float64Array; readonly weights: Float64Array };

  constructor(nodes = 100) {
    this.rule = gaussHermite(nodes);
  }

  expectedLogProb(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    const sign = y > 0 ? 1 : -1;
    const { nodes, weights } = this.rule;
    const scale = Math.sqrt(2 * v);
    let value = 0;
    let dm = 0;
    let dx = 0;
    for (let k = 0; k < nodes.length; k++) {
      const w = weights[k] / Math.sqrt(Math.PI);
      const z = sign * (m + scale * nodes[k]);
      value += w * logNormalCdf(z);
      if (gradient !== undefined) {
        const d = w * sign * millsRatio(z);
        dm += d;
        dx += d * nodes[k];
      }
    }
    if (gradient !== undefined) {
      gradient.dm = dm;
      if (scale > 0) gradient.dv = dx / scale;
      else {
        const z = sign * m;
        const lambda = millsRatio(z);
        gradient.dv = -0.5 * lambda * (z + lambda);
      }
    }
    return value;
  }

  logMarginal(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number {
    const sign = y > 0 ? 1 : -1;
    const root = Math.sqrt(1 + v);
    const z = (sign * m) / root;
    if (gradient !== undefined) {
      const lambda = millsRatio(z);
      gradient.dm = (lambda * sign) / root;
      gradient.dv = (-lambda * z) / (2 * (1 + v));
    }
    return logNormalCdf(z);
  }

  logDensity(y: number, f: number): number {
    return logNormalCdf(y > 0 ? f : -f);
  }

  logDensityDerivative(y: number, f: number): number {
    return y > 0 ? millsRatio(f) : -millsRatio(-f);
  }

  logMaxDensity(): number {
    return 0;
  }

  mode(y: number): number {
    return y > 0 ? Infinity : -Infinity;
  }
}
