import { inverseMillsRatio } from '../../special/inverse-mills-ratio.js';
import { logNormalCdf } from '../../special/log-normal-cdf.js';
import type { QuadratureScratch } from './quadrature-scratch.js';
import type { TiltedMoments } from './tilted-moments.js';

/**
 * Tilted moments of p(y | f)^weight (ℓ = weight·log p, p = σ(yf) or Φ(yf)) under f ~ N(μ, s²) by
 * Gauss–Hermite: Z = E[e^ℓ], and with the tilted expectation Ẽ[g] = E[e^ℓ g]/Z (Opper 1998, eq. 7):
 * α = ∂log Z/∂μ = Ẽ[ℓ′] and ν = −∂²log Z/∂μ² = −Ẽ[ℓ″] − Ṽar[ℓ′]. The derivatives of the smooth
 * ℓ are integrated rather than the moments of f, so ν does not come from the cancellation s² − Ṽar[f].
 * Terms are summed relative to the largest (no underflow far in a tail); nothing is allocated. For the
 * logit one e = e^{−|u|} per node gives log σ(u) = min(u, 0) − log1p(e), σ(u) and σ(−u) (u = yf).
 */
export function quadratureTiltedMoments(out: TiltedMoments, link: 'logit' | 'probit', mu: number, s2: number, y: number, weight: number, scratch: QuadratureScratch): TiltedMoments {
  const { nodes, logWeights, logTerms, slopes, curvatures } = scratch;
  const n = nodes.length;
  const scale = Math.sqrt(2 * s2);
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const u = y * (mu + scale * nodes[i]);
    let logLikelihood: number;
    if (link === 'logit') {
      const e = Math.exp(-Math.abs(u));
      const share = 1 / (1 + e);
      const positive = u >= 0 ? share : e * share;
      logLikelihood = Math.min(u, 0) - Math.log1p(e);
      slopes[i] = u >= 0 ? e * share : share;
      curvatures[i] = -positive * slopes[i];
    } else {
      logLikelihood = logNormalCdf(u);
      const lambda = inverseMillsRatio(u);
      slopes[i] = lambda;
      curvatures[i] = -lambda * (u + lambda);
    }
    const term = logWeights[i] + weight * logLikelihood;
    logTerms[i] = term;
    if (term > max) max = term;
  }
  let mass = 0;
  let slope = 0;
  let curvature = 0;
  for (let i = 0; i < n; i++) {
    const p = Math.exp(logTerms[i] - max);
    logTerms[i] = p;
    mass += p;
    slope += p * slopes[i];
    curvature += p * curvatures[i];
  }
  slope /= mass;
  let spread = 0;
  for (let i = 0; i < n; i++) {
    const deviation = slopes[i] - slope;
    spread += logTerms[i] * deviation * deviation;
  }
  out.logZ = max + Math.log(mass);
  out.alpha = weight * y * slope;
  out.nu = -weight * (curvature / mass) - weight * weight * (spread / mass);
  return out;
}
