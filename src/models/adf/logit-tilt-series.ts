import type { LogitTilt } from './logit-tilt.js';

/**
 * The logistic site's tilted quantities ({@link LogitTilt}) for a narrow projection, in closed form:
 * with c = oμ ≤ 0, p = σ(c) and q = σ(−c), E[σ(u)] for u ~ N(c, s²) is σ(c)·(1 + ε) with
 * ε = Σ_{k≤4} a_k·r_{2k}(q), a_k = (s²/2)^k/k!, the Gaussian moments of σ's Taylor series, where
 * r_n = σ^{(n)}/σ is a polynomial in q (r₁ = q, r_{n+1} = (q² − q)·dr_n/dq + q·r_n):
 * r₂ = 2q² − q, r₄ = 24q⁴ − 36q³ + 14q² − q, r₆ = 720q⁶ − 1800q⁵ + 1560q⁴ − 540q³ + 62q² − q,
 * r₈ = 40320q⁸ − 141120q⁷ + 191520q⁶ − 126000q⁵ + 40824q⁴ − 5796q³ + 254q² − q. The next term is the
 * error: within 3e-12 relative of a 160-node rule in log Z, α and ν up to s² = 0.005
 * (test/models/adf-logit-tilt.test.ts). So log Z_o = log σ(c) + log(1 + ε) and, differentiating in c
 * (dq/dc = −pq), with ε′, ε″ the derivatives of ε in q: (log Z_o)′ = q − pq·ε′/(1 + ε) and
 * ν_o = −(log Z_o)″ = pq + pq(q − p)·ε′/(1 + ε) − (pq)²·ε″/(1 + ε) + (pq·ε′/(1 + ε))². Every term of
 * ν carries pq, so it keeps its relative accuracy where pq underflows toward 0. One exponential, two
 * logarithms and three polynomials of degree 8 or less; writes `out`.
 */
export function logitTiltSeries(out: LogitTilt, mu: number, s2: number): LogitTilt {
  const orientation = mu >= 0 ? -1 : 1;
  const centre = orientation * mu;
  const e = Math.exp(centre);
  const q = 1 / (1 + e);
  const p = e * q;
  const pq = p * q;
  const a1 = s2 / 2;
  const a2 = (a1 * a1) / 2;
  const a3 = (a2 * a1) / 3;
  const a4 = (a3 * a1) / 4;
  const c1 = -(a1 + a2 + a3 + a4);
  const c2 = 2 * a1 + 14 * a2 + 62 * a3 + 254 * a4;
  const c3 = -36 * a2 - 540 * a3 - 5796 * a4;
  const c4 = 24 * a2 + 1560 * a3 + 40824 * a4;
  const c5 = -1800 * a3 - 126000 * a4;
  const c6 = 720 * a3 + 191520 * a4;
  const c7 = -141120 * a4;
  const c8 = 40320 * a4;
  const keep = 1 + q * (c1 + q * (c2 + q * (c3 + q * (c4 + q * (c5 + q * (c6 + q * (c7 + q * c8)))))));
  const first = (c1 + q * (2 * c2 + q * (3 * c3 + q * (4 * c4 + q * (5 * c5 + q * (6 * c6 + q * (7 * c7 + q * 8 * c8))))))) / keep;
  const second = (2 * c2 + q * (6 * c3 + q * (12 * c4 + q * (20 * c5 + q * (30 * c6 + q * (42 * c7 + q * 56 * c8)))))) / keep;
  const slope = q - pq * first;
  const nu = pq + pq * (q - p) * first - pq * pq * second + pq * first * pq * first;
  out.orientation = orientation;
  out.logZ = centre - Math.log1p(e) + Math.log(keep);
  out.alpha = orientation * slope;
  out.nu = nu;
  out.curvature = slope * slope - nu;
  return out;
}
