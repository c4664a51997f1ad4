/**
 * Matrix determinant lemma in log form: log det(A + c·x·xᵀ) = log det A + log(1 + c·xᵀA⁻¹x)
 * (Drugowitsch eq. 86–87). Takes log det A and xᵀA⁻¹x; returns the new log det.
 */
export function matrixDeterminantLemma(logDetA: number, c: number, xAinvx: number): number {
  return logDetA + Math.log1p(c * xAinvx);
}
