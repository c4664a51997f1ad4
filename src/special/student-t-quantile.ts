import { lgamma } from './lgamma.js';
import { normalQuantile } from './normal-quantile.js';
import { studentTCdf } from './student-t-cdf.js';

/**
 * Quantile of the standard Student-t distribution with `df` > 0 degrees of freedom: Newton's
 * method on {@link studentTCdf} from the normal quantile, safeguarded by bisection on a bracket.
 * Accurate to about 1e-12 relative for p in [1e-12, 1 − 1e-12].
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p >= 0 && p <= 1) || !(df > 0)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  const logNorm = lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * Math.log(df * Math.PI);
  let lo = 0;
  let hi = Math.max(1, 2 * normalQuantile(p));
  while (studentTCdf(hi, df) < p) hi *= 2;
  let t = Math.min(Math.max(normalQuantile(p), lo), hi);
  for (let i = 0; i < 200; i++) {
    const f = studentTCdf(t, df) - p;
    if (f > 0) hi = t;
    else lo = t;
    const density = Math.exp(logNorm - ((df + 1) / 2) * Math.log1p((t * t) / df));
    let next = t - f / density;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (Math.abs(next - t) <= 1e-14 * Math.max(1, Math.abs(t))) return next;
    t = next;
  }
  return t;
}
