import type { QuadratureScratch } from './quadrature-scratch.js';
import { stableShape } from '../../core/stable-shape.js';

/** At most this many Newton steps (a step leaving the bracket bisects it instead) locate the tilted mode. */
const MODE_STEPS = 60;

/** The mode search stops once a step moves it by less than this many prior standard deviations s. */
const MODE_TOLERANCE = 1e-5;

/** …or once a Newton step leaves it provably closer than this many s to the mode (see {@link NEWTON_ERROR}). */
const MODE_ERROR = 1e-7;

/**
 * After a Newton step of size δ on the mode's equation g(u) = σ(−u) − (u − c)/s² the error left is at
 * most |g″|/(2|g′|)·δ² ≤ (0.0962/2)·s²·δ² (|g′| ≥ 1/s², |g″| = |σσ′(1 − 2σ)| ≤ 0.0962): this bound's constant.
 */
const NEWTON_ERROR = 0.05;

/**
 * What one logistic record does to f ~ N(μ, s²), computed for the less likely label o (o = −1 when
 * μ ≥ 0, else +1; Z_o = E[σ(of)] ≤ ½) so that both labels follow without cancellation: log Z_o, the
 * moments α_o, ν_o and ρ = Z_o″/Z_o (second derivative in μ).
 */
export interface LogitTilt {
  orientation: number;
  logZ: number;
  alpha: number;
  nu: number;
  curvature: number;
}

/** An empty {@link LogitTilt}. */
export function emptyLogitTilt(): LogitTilt {
  return stableShape({ orientation: 1, logZ: 0, alpha: 0, nu: 0, curvature: 0 }, ['logZ', 'alpha', 'nu', 'curvature']);
}

/**
 * The logistic site's tilted quantities under f ~ N(μ, s²) for the less likely label o, by
 * Gauss–Hermite centred on the tilted mode (adaptive Gauss–Hermite; Liu & Pierce 1994), as
 * `quadratureTiltedMoments` does for every likelihood, specialised to σ with weight 1: in u = of
 * (prior N(c, s²), c = oμ ≤ 0) the mode û of log σ(u) − (u − c)²/(2s²) (safeguarded Newton in
 * [c, c + s²σ(−c)], stopped once a step moves less than 1e-5·s or the
 * mode is known to 1e-7·s) and 1/v̂ = 1/s² + σ(û)σ(−û) place the nodes u = û + √(2v̂)·xᵢ. Each node costs
 * two exponentials and no logarithm: the term wᵢe^{xᵢ²}σ(u)e^{−(u−c)²/(2s²)} is taken relative to
 * e^{min(û,0) − (û−c)²/(2s²)}, which bounds it by 2wᵢe^{xᵢ²} (log σ(u) = min(u, 0) − log(1 + e^{−|u|})).
 * With a = σ(−u) = ℓ′ and b = σ(u) = −ℓ″/a under the tilted distribution: α_o = o·Ẽ[a],
 * ν_o = Ẽ[ab] − Ṽar[a] (the variance summed about its mean) and Z_o″/Z_o = Ẽ[a(a − b)].
 * `rule` is the Gauss–Hermite rule to use (see {@link logitRuleFor}). Writes `out`; nothing allocated.
 */
export function logitTilt(out: LogitTilt, mu: number, s2: number, rule: QuadratureScratch): LogitTilt {
  const orientation = mu >= 0 ? -1 : 1;
  const centre = orientation * mu;
  // e^{c} = e^{−|c|} (c ≤ 0): the bracket's bound and the first Newton step (at c) share it.
  const atCentre = Math.exp(centre);
  let low = centre;
  let high = centre + s2 / (1 + atCentre);
  let mode = centre;
  let ab = 0;
  for (let k = 0; k < MODE_STEPS; k++) {
    const e = k === 0 ? atCentre : Math.exp(-Math.abs(mode));
    const a = mode >= 0 ? e / (1 + e) : 1 / (1 + e);
    ab = a * (1 - a);
    const gradient = a - (mode - centre) / s2;
    if (gradient > 0) low = mode;
    else high = mode;
    const newton = mode + gradient / (1 / s2 + ab);
    const inside = newton > low && newton < high;
    const next = inside ? newton : 0.5 * (low + high);
    const moved = Math.abs(next - mode);
    mode = next;
    if (moved <= MODE_TOLERANCE * Math.sqrt(s2) || (inside && NEWTON_ERROR * s2 * moved * moved <= MODE_ERROR * Math.sqrt(s2))) break;
  }
  const modeVariance = 1 / (1 / s2 + ab);
  const scale = Math.sqrt(2 * modeVariance);
  const half = 1 / (2 * s2);
  const reference = Math.min(mode, 0) - (mode - centre) * (mode - centre) * half;
  const { nodes, logWeights, logTerms: terms, slopes } = rule;
  const n = nodes.length;
  let mass = 0;
  let slope = 0;
  let product = 0;
  let bend = 0;
  for (let i = 0; i < n; i++) {
    const x = nodes[i];
    const u = mode + scale * x;
    const e = Math.exp(-Math.abs(u));
    const share = 1 / (1 + e);
    const b = u >= 0 ? share : e * share;
    const a = u >= 0 ? e * share : share;
    const offset = u - centre;
    const p = Math.exp(logWeights[i] + x * x + Math.min(u, 0) - offset * offset * half - reference) * share;
    terms[i] = p;
    slopes[i] = a;
    mass += p;
    slope += p * a;
    product += p * a * b;
    bend += p * a * (a - b);
  }
  slope /= mass;
  let spread = 0;
  for (let i = 0; i < n; i++) {
    const deviation = slopes[i] - slope;
    spread += terms[i] * deviation * deviation;
  }
  out.orientation = orientation;
  out.logZ = reference + Math.log(mass * Math.sqrt(modeVariance / s2));
  out.alpha = orientation * slope;
  out.nu = (product - spread) / mass;
  out.curvature = bend / mass;
  return out;
}
