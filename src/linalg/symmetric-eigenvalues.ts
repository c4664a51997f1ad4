import { NumericalError } from '../core/numerical-error.js';

/** QL sweeps allowed per eigenvalue before giving up (two or three are typical). */
const MAX_SWEEPS = 60;

/**
 * Eigenvalues (ascending) of a symmetric n×n row-major matrix, without eigenvectors: Householder
 * reduction to tridiagonal form on the lower triangle (Golub & Van Loan §8.3.1, ≈ 4n³/3 flops), then
 * the implicit QL iteration with Wilkinson shifts on the tridiagonal matrix (§8.3.5, O(n²)). Leaves
 * `a` untouched; allocates its n×n copy. A NumericalError if the iteration does not converge.
 */
export function symmetricEigenvalues(a: Float64Array, n: number): Float64Array {
  const w = Float64Array.from(a.subarray(0, n * n));
  const diagonal = new Float64Array(n);
  const off = new Float64Array(n); // off[i]: the entry (i, i − 1) of the tridiagonal matrix
  const u = new Float64Array(n);
  const p = new Float64Array(n);
  for (let i = n - 1; i >= 1; i--) {
    diagonal[i] = w[i * n + i];
    const row = i * n;
    let scale = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(w[row + k]);
    if (i === 1 || scale === 0) {
      off[i] = w[row + i - 1];
      continue;
    }
    let sigma = 0;
    for (let k = 0; k < i; k++) {
      u[k] = w[row + k] / scale;
      sigma += u[k] * u[k];
    }
    const f = u[i - 1];
    const g = f >= 0 ? -Math.sqrt(sigma) : Math.sqrt(sigma);
    off[i] = scale * g;
    const h = sigma - f * g; // uᵀu / 2 with u = x/scale − g·e_{i−1}
    u[i - 1] = f - g;
    // p = A u / h over the leading i×i block, reading its lower triangle row by row.
    p.fill(0, 0, i);
    for (let j = 0; j < i; j++) {
      const rj = j * n;
      let sum = w[rj + j] * u[j];
      const uj = u[j];
      for (let k = 0; k < j; k++) {
        sum += w[rj + k] * u[k];
        p[k] += w[rj + k] * uj;
      }
      p[j] += sum;
    }
    let up = 0;
    for (let j = 0; j < i; j++) {
      p[j] /= h;
      up += u[j] * p[j];
    }
    const half = up / (2 * h);
    for (let j = 0; j < i; j++) p[j] -= half * u[j];
    // A ← A − u pᵀ − p uᵀ on the lower triangle.
    for (let j = 0; j < i; j++) {
      const rj = j * n;
      const uj = u[j];
      const pj = p[j];
      for (let k = 0; k <= j; k++) w[rj + k] -= uj * p[k] + pj * u[k];
    }
  }
  diagonal[0] = w[0];
  tridiagonalQl(diagonal, off, n);
  return diagonal.sort();
}

/** Overwrites `d` with the eigenvalues of the symmetric tridiagonal matrix of diagonal d and subdiagonal off[1..n) (destroyed). */
function tridiagonalQl(d: Float64Array, off: Float64Array, n: number): void {
  const e = off;
  for (let i = 0; i < n - 1; i++) e[i] = e[i + 1]; // e[i]: the entry (i + 1, i)
  if (n > 0) e[n - 1] = 0;
  for (let l = 0; l < n; l++) {
    for (let sweep = 0; ; sweep++) {
      let m = l;
      while (m < n - 1) {
        const size = Math.abs(d[m]) + Math.abs(d[m + 1]);
        if (Math.abs(e[m]) <= Number.EPSILON * size) break;
        m++;
      }
      if (m === l) break;
      if (sweep === MAX_SWEEPS) throw new NumericalError(`symmetric eigenvalues: no convergence after ${MAX_SWEEPS} QL sweeps at eigenvalue ${l} of ${n}`);
      let g = (d[l + 1] - d[l]) / (2 * e[l]);
      let r = Math.hypot(g, 1);
      g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
      let s = 1;
      let c = 1;
      let shift = 0;
      let deflated = false;
      for (let i = m - 1; i >= l; i--) {
        const f = s * e[i];
        const b = c * e[i];
        r = Math.hypot(f, g);
        e[i + 1] = r;
        if (r === 0) {
          d[i + 1] -= shift;
          e[m] = 0;
          deflated = true;
          break;
        }
        s = f / r;
        c = g / r;
        g = d[i + 1] - shift;
        r = (d[i] - g) * s + 2 * c * b;
        shift = s * r;
        d[i + 1] = g + shift;
        g = c * r - b;
      }
      if (deflated) continue;
      d[l] -= shift;
      e[l] = g;
      e[m] = 0;
    }
  }
}
