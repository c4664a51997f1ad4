/** Largest |x| for which {@link erfSmall} is valid. */
export const ERF_SMALL_LIMIT = 0.46875;

/**
 * erf(x) for |x| ≤ 0.46875 only: W. J. Cody's rational Chebyshev approximation
 * x·P₄(x²)/Q₄(x²) (Math. Comp. 23 (1969) 631–637; SPECFUN CALERF, first interval).
 * Relative accuracy ≈ 1e-16 on that interval; meaningless outside it.
 */
export function erfSmall(x: number): number {
  const z = x * x;
  let num = 1.85777706184603153e-1;
  num = num * z + 3.1611237438705656e0;
  num = num * z + 1.13864154151050156e2;
  num = num * z + 3.77485237685302021e2;
  num = num * z + 3.20937758913846947e3;
  let den = z + 2.36012909523441209e1;
  den = den * z + 2.44024637934444173e2;
  den = den * z + 1.28261652607737228e3;
  den = den * z + 2.84423683343917062e3;
  return (x * num) / den;
}
