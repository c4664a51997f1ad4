import { symmetricEigen } from './symmetric-eigen.js';

/**
 * 2-norm condition number λ_max/λ_min of a symmetric positive-definite n×n matrix, from its
 * eigenvalues (ml-matrix, O(n³): for diagnostics, not hot paths). Infinity if λ_min ≤ 0.
 */
export function conditionNumber(a: Float64Array, n: number): number {
  const { values } = symmetricEigen(a, n);
  return values[0] > 0 ? values[n - 1] / values[0] : Infinity;
}
