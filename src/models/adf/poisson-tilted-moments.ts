import { lgamma } from '../../special/lgamma.js';
import type { TiltedMoments } from './tilted-moments.js';

/** The trapezoid step as a share of the Laplace scale σ̂ at the mode. */
const STEP_PER_SPREAD = 0.25;

/** At most this many trapezoid intervals (a support many σ̂ wide: a zero count under a wide prior). */
const MAX_POINTS = 4096;

/** The support is where the log tilted density is within this of its maximum (e^−40 ≈ 4e−18). */
const LOG_DENSITY_DROP = 40;

/** g(f) = weight·(y·f − eᶠ) − (f − μ)²/(2s²), the log tilted density up to a constant. */
function logTilted(f: number, mu: number, s2: number, y: number, weight: number): number {
  const deviation = f - mu;
  return weight * (y * f - Math.exp(f)) - (deviation * deviation) / (2 * s2);
}

/**
 * The mode of g: the root of the decreasing g′(f) = weight·(y − eᶠ) − (f − μ)/s², by Newton steps kept
 * inside a bracket that g′'s signs prove ([min(μ, ln y), max(μ, ln y)] for y > 0;
 * [μ − weight·s²·e^μ, μ] for y = 0), bisecting when a step would leave it.
 */
function tiltedMode(mu: number, s2: number, y: number, weight: number): number {
  const logY = y > 0 ? Math.log(y) : -Infinity;
  let low = y > 0 ? Math.min(mu, logY) : mu - weight * s2 * Math.exp(mu);
  let high = y > 0 ? Math.max(mu, logY) : mu;
  let f = Math.min(Math.max(mu, low), high);
  for (let iteration = 0; iteration < 100; iteration++) {
    const rate = Math.exp(f);
    const slope = weight * (y - rate) - (f - mu) / s2;
    if (slope > 0) low = f;
    else high = f;
    let next = f + slope / (weight * rate + 1 / s2);
    if (!(next > low && next < high)) next = 0.5 * (low + high);
    if (Math.abs(next - f) <= 1e-13 * (1 + Math.abs(f)) || high - low <= 1e-13 * (1 + Math.abs(f))) return next;
    f = next;
  }
  return f;
}

/**
 * Where g falls to `level` on the side of the mode given by `direction` (±1). g is concave, so Newton
 * steps from beyond the crossing approach it monotonically; the start is the Laplace guess, pushed
 * outward until it is beyond.
 */
function supportEnd(mode: number, spread: number, level: number, direction: number, mu: number, s2: number, y: number, weight: number): number {
  let step = Math.sqrt(2 * LOG_DENSITY_DROP) * spread;
  let f = mode + direction * step;
  while (logTilted(f, mu, s2, y, weight) > level && step < 1e6) {
    step *= 2;
    f = mode + direction * step;
  }
  for (let iteration = 0; iteration < 60; iteration++) {
    const gap = logTilted(f, mu, s2, y, weight) - level;
    const slope = weight * (y - Math.exp(f)) - (f - mu) / s2;
    const next = f - gap / slope;
    if (!Number.isFinite(next) || Math.abs(next - f) <= 1e-9 * (1 + Math.abs(f))) break;
    f = next;
  }
  return f;
}

/**
 * Tilted moments of the Poisson likelihood p(y | f)^weight, p = Poisson(y; eᶠ), under f ~ N(μ, s²).
 * The tilted density is log-concave but can be far narrower than N(μ, s²) (a large count, a wide
 * prior) and strongly skewed (a zero count: a Gaussian tail cut by exp(−eᶠ)), which neither a rule on
 * N(μ, s²) nor one on the Laplace approximation resolves; so it is integrated by the trapezoid rule
 * (exponentially convergent for smooth, fast-decaying integrands) with step σ̂/4, σ̂ the Laplace scale
 * at the mode, out to where it is e^−40 below its peak on each side (found by Newton, g being concave). From the
 * tilted mean m̃ and variance ṽ of f: α = (m̃ − μ)/s², ν = (s² − ṽ)/s⁴ (Minka 2001, eq. 3.10–3.11)
 * when ṽ < s²/2; otherwise, where that difference would cancel, from the derivatives of
 * ℓ = weight·log p as for the Bernoulli links: α = Ẽ[ℓ′], ν = −Ẽ[ℓ″] − Ṽar[ℓ′], ℓ′ = weight·(y − eᶠ),
 * ℓ″ = −weight·eᶠ. Writes `out`; nothing allocated.
 */
export function poissonTiltedMoments(out: TiltedMoments, mu: number, s2: number, y: number, weight: number): TiltedMoments {
  const mode = tiltedMode(mu, s2, y, weight);
  const peak = logTilted(mode, mu, s2, y, weight);
  const modeRate = Math.exp(mode);
  const spread = 1 / Math.sqrt(weight * modeRate + 1 / s2);
  const level = peak - LOG_DENSITY_DROP;
  const start = supportEnd(mode, spread, level, -1, mu, s2, y, weight);
  const end = supportEnd(mode, spread, level, 1, mu, s2, y, weight);
  const points = Math.min(MAX_POINTS, Math.ceil((end - start) / (STEP_PER_SPREAD * spread)));
  const h = (end - start) / points;
  let mass = 0;
  let offset1 = 0;
  let offset2 = 0;
  let rate1 = 0;
  let rate2 = 0;
  for (let k = 0; k <= points; k++) {
    const f = start + k * h;
    const p = (k === 0 || k === points ? 0.5 : 1) * Math.exp(logTilted(f, mu, s2, y, weight) - peak);
    const offset = f - mode;
    const rate = Math.exp(f) - modeRate;
    mass += p;
    offset1 += p * offset;
    offset2 += p * offset * offset;
    rate1 += p * rate;
    rate2 += p * rate * rate;
  }
  offset1 /= mass;
  rate1 /= mass;
  const variance = offset2 / mass - offset1 * offset1;
  const rateVariance = rate2 / mass - rate1 * rate1;
  out.logZ = peak + Math.log(mass * h) - weight * lgamma(y + 1) - 0.5 * Math.log(2 * Math.PI * s2);
  if (variance < 0.5 * s2) {
    out.alpha = (mode + offset1 - mu) / s2;
    out.nu = (s2 - variance) / (s2 * s2);
  } else {
    out.alpha = weight * (y - modeRate - rate1);
    out.nu = weight * (modeRate + rate1) - weight * weight * rateVariance;
  }
  return out;
}
