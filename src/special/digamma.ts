const ASYMPTOTIC_MIN = 10;

/** π·cot(πx), reduced exactly to r = x − round(x) ∈ [−½, ½] first. */
function piCotPi(x: number): number {
  const r = x - Math.round(x);
  const a = Math.abs(r);
  const cot = a <= 0.25 ? 1 / Math.tan(Math.PI * a) : Math.tan(Math.PI * (0.5 - a));
  return r < 0 ? -Math.PI * cot : Math.PI * cot;
}

/**
 * Digamma function ψ(x) = Γ′(x)/Γ(x), for all real x.
 *
 * Domain: x = ±0 → ∓Infinity (ψ(x) ≈ −1/x), negative integers and −Infinity → NaN,
 * +Infinity → +Infinity. Algorithm: recurrence ψ(x) = ψ(x + 1) − 1/x up to x ≥ 10, then the
 * asymptotic series log x − 1/(2x) − Σₖ₌₁⁸ B₂ₖ/(2k·x²ᵏ); reflection ψ(x) = ψ(1 − x) − π·cot(πx)
 * for x < 0. Accuracy (vs mpmath): ≤ 1e-15 relative away from the positive zero
 * x₀ ≈ 1.46163 (absolute ≈ 1e-16 near it) and from the zeros on the negative axis.
 */
export function digamma(x: number): number {
  if (x <= 0) {
    if (x === 0) return -1 / x;
    if (x === Math.floor(x)) return NaN;
    return digamma(1 - x) - piCotPi(x);
  }
  let shift = 0;
  let y = x;
  while (y < ASYMPTOTIC_MIN) {
    shift += 1 / y;
    y += 1;
  }
  const w = 1 / (y * y);
  let s = -3617 / 8160;
  s = s * w + 1 / 12;
  s = s * w - 691 / 32760;
  s = s * w + 1 / 132;
  s = s * w - 1 / 240;
  s = s * w + 1 / 252;
  s = s * w - 1 / 120;
  s = s * w + 1 / 12;
  return Math.log(y) - 0.5 / y - s * w - shift;
}
