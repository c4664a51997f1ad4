/**
 * Standard normal quantile Φ⁻¹(p).
 *
 * Domain: p ∈ (0, 1); p = 0 → −Infinity, p = 1 → +Infinity, otherwise (or NaN) → NaN.
 * Algorithm: M. J. Wichura, "Algorithm AS 241: The percentage points of the normal
 * distribution", Appl. Statist. 37 (1988) 477–484 (PPND16): rational approximations in
 * p − ½ for |p − ½| ≤ 0.425, otherwise in r = √(−log min(p, 1 − p)) split at r = 5.
 * Accuracy (vs mpmath): ≤ 5e-16 relative for p from 5e-324 to 1 − 2⁻⁵³.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) {
    if (p === 0) return -Infinity;
    if (p === 1) return Infinity;
    return NaN;
  }
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    let num = 2.5090809287301226727e3;
    num = num * r + 3.3430575583588128105e4;
    num = num * r + 6.7265770927008700853e4;
    num = num * r + 4.5921953931549871457e4;
    num = num * r + 1.3731693765509461125e4;
    num = num * r + 1.9715909503065514427e3;
    num = num * r + 1.3314166789178437745e2;
    num = num * r + 3.387132872796366608;
    let den = 5.226495278852854561e3;
    den = den * r + 2.8729085735721942674e4;
    den = den * r + 3.930789580009271061e4;
    den = den * r + 2.1213794301586595867e4;
    den = den * r + 5.3941960214247511077e3;
    den = den * r + 6.871870074920579083e2;
    den = den * r + 4.2313330701600911252e1;
    den = den * r + 1;
    return (q * num) / den;
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let value: number;
  if (r <= 5) {
    r -= 1.6;
    let num = 7.7454501427834140764e-4;
    num = num * r + 2.27238449892691845833e-2;
    num = num * r + 2.4178072517745061177e-1;
    num = num * r + 1.27045825245236838258;
    num = num * r + 3.64784832476320460504;
    num = num * r + 5.7694972214606914055;
    num = num * r + 4.6303378461565452959;
    num = num * r + 1.42343711074968357734;
    let den = 1.05075007164441684324e-9;
    den = den * r + 5.475938084995344946e-4;
    den = den * r + 1.51986665636164571966e-2;
    den = den * r + 1.4810397642748007459e-1;
    den = den * r + 6.8976733498510000455e-1;
    den = den * r + 1.6763848301838038494;
    den = den * r + 2.05319162663775882187;
    den = den * r + 1;
    value = num / den;
  } else {
    r -= 5;
    let num = 2.01033439929228813265e-7;
    num = num * r + 2.71155556874348757815e-5;
    num = num * r + 1.2426609473880784386e-3;
    num = num * r + 2.6532189526576123093e-2;
    num = num * r + 2.9656057182850489123e-1;
    num = num * r + 1.7848265399172913358;
    num = num * r + 5.4637849111641143699;
    num = num * r + 6.6579046435011037772;
    let den = 2.04426310338993978564e-15;
    den = den * r + 1.4215117583164458887e-7;
    den = den * r + 1.8463183175100546818e-5;
    den = den * r + 7.868691311456132591e-4;
    den = den * r + 1.4875361290850614852e-2;
    den = den * r + 1.3692988092273580531e-1;
    den = den * r + 5.9983220655588793769e-1;
    den = den * r + 1;
    value = num / den;
  }
  return q < 0 ? -value : value;
}
