/**
 * Sherman–Morrison: given V = A⁻¹ (full symmetric row-major n×n) and u = V·x (precomputed, so the
 * caller can reuse it), overwrites V with (A + c·x·xᵀ)⁻¹ = V − c·u·uᵀ / (1 + c·xᵀu), where
 * `xVx` = xᵀu. Drugowitsch eq. (85). Returns the factor 1 + c·xᵀVx (its log is the log-det change,
 * see {@link matrixDeterminantLemma}).
 */
export function shermanMorrisonUpdate(v: Float64Array, n: number, u: Float64Array, c: number, xVx: number): number {
  const denominator = 1 + c * xVx;
  const scale = -c / denominator;
  for (let i = 0; i < n; i++) {
    const s = scale * u[i];
    const base = i * n;
    v[base + i] += s * u[i];
    for (let j = i + 1; j < n; j++) {
      const value = s * u[j];
      v[base + j] += value;
      v[j * n + i] += value;
    }
  }
  return denominator;
}
