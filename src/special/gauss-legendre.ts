const MAX_NEWTON = 100;
const cache = new Map<number, { readonly nodes: Float64Array; readonly weights: Float64Array }>();

/**
 * n-point Gauss–Legendre rule on [−1, 1]: ∫ f(x) dx ≈ Σᵢ wᵢ f(xᵢ), exact for polynomials of degree
 * ≤ 2n − 1 (Σ wᵢ = 2). For [a, b] use ((b − a)/2)·Σᵢ wᵢ f((a + b)/2 + (b − a)/2·xᵢ). Nodes ascending.
 *
 * Algorithm: Numerical Recipes' `gauleg`, Newton on the recurrence
 * j·Pⱼ = (2j − 1)·x·Pⱼ₋₁ − (j − 1)·Pⱼ₋₂ from Tricomi's guess cos(π(i − ¼)/(n + ½)), with
 * wᵢ = 2/((1 − xᵢ²)·Pₙ′(xᵢ)²).
 * Rules are memoised per n (callers must not mutate them).
 *
 * @throws RangeError if n is not an integer in [1, 200].
 */
export function gaussLegendre(n: number): { readonly nodes: Float64Array; readonly weights: Float64Array } {
  if (!Number.isInteger(n) || n < 1 || n > 200) throw new RangeError(`gaussLegendre: n must be an integer in [1, 200], got ${n}`);
  const cached = cache.get(n);
  if (cached !== undefined) return cached;
  const nodes = new Float64Array(n);
  const weights = new Float64Array(n);
  for (let i = 0; 2 * i < n; i++) {
    let z = Math.cos((Math.PI * (i + 0.75)) / (n + 0.5));
    let derivative = 0;
    for (let iteration = 0; iteration < MAX_NEWTON; iteration++) {
      let p1 = 1;
      let p2 = 0;
      for (let j = 1; j <= n; j++) {
        const p3 = p2;
        p2 = p1;
        p1 = ((2 * j - 1) * z * p2 - (j - 1) * p3) / j;
      }
      derivative = (n * (z * p1 - p2)) / (z * z - 1);
      const step = p1 / derivative;
      z -= step;
      if (Math.abs(step) <= 1e-15) break;
    }
    if (2 * i === n - 1) z = 0;
    nodes[i] = -z;
    nodes[n - 1 - i] = z;
    weights[i] = weights[n - 1 - i] = 2 / ((1 - z * z) * derivative * derivative);
  }
  const rule = Object.freeze({ nodes, weights });
  cache.set(n, rule);
  return rule;
}
