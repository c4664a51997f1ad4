import { EigenvalueDecomposition, Matrix } from 'ml-matrix';

/**
 * Eigenvalues (ascending) and eigenvectors (columns of a row-major n×n matrix) of a symmetric
 * matrix, via ml-matrix's EigenvalueDecomposition (tridiagonal QL). Off the hot path: used for
 * conditioning diagnostics, where writing a QL iteration of our own would duplicate a maintained one.
 */
export function symmetricEigen(a: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const rows: number[][] = [];
  for (let i = 0; i < n; i++) rows.push(Array.from(a.subarray(i * n, i * n + n)));
  const decomposition = new EigenvalueDecomposition(new Matrix(rows), { assumeSymmetric: true });
  const values = Float64Array.from(decomposition.realEigenvalues);
  const vectors = new Float64Array(n * n);
  const v = decomposition.eigenvectorMatrix;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) vectors[i * n + j] = v.get(i, j);
  return { values, vectors };
}
