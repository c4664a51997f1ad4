import { symmetricEigenvalues } from './symmetric-eigenvalues.js';

/**
 * 2-norm condition number λ_max/λ_min of a symmetric positive-definite n×n matrix, from its
 * eigenvalues alone ({@link symmetricEigenvalues}, ≈ 4n³/3 flops: for diagnostics, not hot paths).
 * Infinity if λ_min ≤ 0.
 */
export function conditionNumber(a: Float64Array, n: number): number {
  const values = symmetricEigenvalues(a, n);
  return values[0] > 0 ? values[n - 1] / values[0] : Infinity;
}
