import { regularizedIncompleteBeta } from './regularized-incomplete-beta.js';

/** CDF of the standard Student-t distribution with `df` > 0 degrees of freedom at t. */
export function studentTCdf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}
