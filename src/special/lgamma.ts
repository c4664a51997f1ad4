const LOG_PI = 1.1447298858494002;
const HALF_LOG_2PI_MINUS_HALF = 0.4189385332046727;
const STIRLING_MIN = 10;

/**
 * log Γ(2 + z) for |z| ≤ ½ by its Taylor series (1 − γ)z + Σₖ₌₂ (−1)ᵏ(ζ(k) − 1)zᵏ/k,
 * truncated after k = 27 (truncation ≤ 6e-18 relative; coefficients from mpmath).
 */
function lgammaNearTwo(z: number): number {
  let s = -2.7595228851242331e-10;
  s = s * z + 5.731367241678862e-10;
  s = s * z - 1.1921401405860912e-9;
  s = s * z + 2.4836745438024783e-9;
  s = s * z - 5.1834750419700467e-9;
  s = s * z + 1.0838659214896954e-8;
  s = s * z - 2.2711094608943165e-8;
  s = s * z + 4.7698101693639806e-8;
  s = s * z - 1.00432248239681e-7;
  s = s * z + 2.1207184805554666e-7;
  s = s * z - 4.492469198764566e-7;
  s = s * z + 9.5514121304074198e-7;
  s = s * z - 2.0392157538013662e-6;
  s = s * z + 4.3748667899074878e-6;
  s = s * z - 9.4394882752683959e-6;
  s = s * z + 2.0507212775670692e-5;
  s = s * z - 4.4926236738133142e-5;
  s = s * z + 9.9457512781808534e-5;
  s = s * z - 2.2315475845357938e-4;
  s = s * z + 5.0966952474304242e-4;
  s = s * z - 1.192753911703261e-3;
  s = s * z + 2.8905103307415233e-3;
  s = s * z - 7.3855510286739853e-3;
  s = s * z + 2.0580808427784548e-2;
  s = s * z - 6.7352301053198095e-2;
  s = s * z + 3.2246703342411322e-1;
  s = s * z + 4.2278433509846714e-1;
  return s * z;
}

/** Stirling's series for x ≥ 10: (x − ½)(log x − 1) + ½log 2π − ½ + Σₖ₌₁⁸ B₂ₖ/(2k(2k − 1)x²ᵏ⁻¹). */
function lgammaStirling(x: number): number {
  const w = 1 / (x * x);
  let s = -3617 / 122400;
  s = s * w + 1 / 156;
  s = s * w - 691 / 360360;
  s = s * w + 1 / 1188;
  s = s * w - 1 / 1680;
  s = s * w + 1 / 1260;
  s = s * w - 1 / 360;
  s = s * w + 1 / 12;
  return (x - 0.5) * (Math.log(x) - 1) + HALF_LOG_2PI_MINUS_HALF + s / x;
}

/** log Γ(x) for x > 0. */
function lgammaPositive(x: number): number {
  if (x < 0.5) return lgammaNearTwo(x) - Math.log1p(x) - Math.log(x);
  if (x < 1.5) return lgammaNearTwo(x - 1) - Math.log(x);
  if (x < 2.5) return lgammaNearTwo(x - 2);
  if (x < STIRLING_MIN) {
    let y = x - 1;
    let product = y;
    while (y >= 2.5) {
      y -= 1;
      product *= y;
    }
    return lgammaNearTwo(y - 2) + Math.log(product);
  }
  return lgammaStirling(x);
}

/**
 * log|Γ(x)|, for all real x.
 *
 * Domain: x > 0 (full accuracy); negative non-integers by the reflection
 * log|Γ(x)| = log π − log|sin πx| − log Γ(1 − x); x ∈ {0, −1, −2, …} and ±Infinity → +Infinity.
 * Algorithm: Taylor series of log Γ about 2 (coefficients (−1)ᵏ(ζ(k) − 1)/k) on [1.5, 2.5),
 * reached by the recurrence Γ(x + 1) = xΓ(x) from (0, 10); Stirling's series from 10 on.
 * Accuracy (vs mpmath): ≤ 5e-16 relative for x > 0, including next to the zeros at 1 and 2
 * (lgamma(1 + 1e-8) ≈ −5.77e-9 to full precision); for x < 0, ≈ 1e-15 absolute
 * (relative accuracy is lost only next to the zeros of log|Γ| there, e.g. x ≈ −2.457).
 */
export function lgamma(x: number): number {
  if (x > 0) return lgammaPositive(x);
  if (x === Math.floor(x)) return Infinity;
  const r = x - Math.round(x);
  return LOG_PI - Math.log(Math.abs(Math.sin(Math.PI * r))) - lgammaPositive(1 - x);
}
