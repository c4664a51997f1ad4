import { inverseMillsRatio } from '../../special/inverse-mills-ratio.js';
import { logNormalCdf } from '../../special/log-normal-cdf.js';
import type { QuadratureScratch } from './quadrature-scratch.js';
import type { TiltedMoments } from './tilted-moments.js';

/** At most this many Newton steps (a step leaving the bracket bisects it instead) locate the tilted mode. */
const MODE_STEPS = 60;

/** ℓ(u) = log σ(u) or log Φ(u) with ℓ′ and ℓ″, into `out` (index 0, 1, 2). */
function logLikelihoodDerivatives(link: 'logit' | 'probit', u: number, out: Float64Array): void {
  if (link === 'logit') {
    const e = Math.exp(-Math.abs(u));
    const share = 1 / (1 + e);
    const positive = u >= 0 ? share : e * share;
    out[0] = Math.min(u, 0) - Math.log1p(e);
    out[1] = u >= 0 ? e * share : share;
    out[2] = -positive * out[1];
  } else {
    const lambda = inverseMillsRatio(u);
    out[0] = logNormalCdf(u);
    out[1] = lambda;
    out[2] = -lambda * (u + lambda);
  }
}

/**
 * Tilted moments of p(y | f)^weight (ℓ = weight·log p, p = σ(yf) or Φ(yf)) under f ~ N(μ, s²) by
 * Gauss–Hermite centred on the tilted distribution (adaptive Gauss–Hermite; Liu & Pierce 1994): in
 * u = yf, the mode û of weight·ℓ(u) − (u − yμ)²/(2s²) (safeguarded Newton inside its bracket
 * [yμ, yμ + weight·s²·ℓ′(yμ)]) and the curvature there, 1/v̂ = 1/s² − weight·ℓ″(û), place the nodes
 * u = û + √(2v̂)·xᵢ, each weighted by N(u; yμ, s²)/N(u; û, v̂). The integrand is then smooth on the
 * scale of the nodes for every s² and μ (a rule under N(μ, s²) misses the step of σ once s² passes
 * ~10, and a misclassified record's mass far in its tail). With Ẽ the tilted expectation (Opper
 * 1998, eq. 7): α = ∂log Z/∂μ = y·Ẽ[ℓ′] and ν = −∂²log Z/∂μ² = −Ẽ[ℓ″] − Ṽar[ℓ′]; the derivatives of
 * the smooth ℓ are integrated rather than the moments of f, so ν does not come from the
 * cancellation s² − Ṽar[f]. Terms are summed relative to the largest; nothing is allocated.
 */
export function quadratureTiltedMoments(out: TiltedMoments, link: 'logit' | 'probit', mu: number, s2: number, y: number, weight: number, scratch: QuadratureScratch): TiltedMoments {
  const { nodes, logWeights, logTerms, slopes, curvatures, point } = scratch;
  const n = nodes.length;
  const centre = y * mu;
  logLikelihoodDerivatives(link, centre, point);
  let low = centre;
  let high = centre + weight * s2 * point[1];
  let mode = centre;
  for (let k = 0; k < MODE_STEPS; k++) {
    logLikelihoodDerivatives(link, mode, point);
    const gradient = weight * point[1] - (mode - centre) / s2;
    if (gradient > 0) low = mode;
    else high = mode;
    const newton = mode + gradient / (1 / s2 - weight * point[2]);
    const next = newton > low && newton < high ? newton : 0.5 * (low + high);
    const moved = Math.abs(next - mode);
    mode = next;
    if (moved <= 1e-9 * (1 + Math.abs(mode))) break;
  }
  logLikelihoodDerivatives(link, mode, point);
  const modeVariance = 1 / (1 / s2 - weight * point[2]);
  // ½·ln(v̂/s²) = −½·ln(1 − weight·ℓ″(û)·s²): finite even where s² is subnormal and v̂/s² rounds to 0.
  const halfLogVarianceRatio = -0.5 * Math.log1p(-weight * point[2] * s2);
  const scale = Math.sqrt(2 * modeVariance);
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const u = mode + scale * nodes[i];
    logLikelihoodDerivatives(link, u, point);
    slopes[i] = point[1];
    curvatures[i] = point[2];
    const offset = u - centre;
    const term = logWeights[i] + weight * point[0] - (offset * offset) / (2 * s2) + nodes[i] * nodes[i];
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
  out.logZ = max + Math.log(mass) + halfLogVarianceRatio;
  out.alpha = weight * y * slope;
  out.nu = -weight * (curvature / mass) - weight * weight * (spread / mass);
  return out;
}
