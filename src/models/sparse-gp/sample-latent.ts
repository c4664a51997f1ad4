import { cholesky } from '../../linalg/cholesky.js';
import type { Rng } from '../../rng/rng.js';
import { sampleSparseGpInducing } from './sample-inducing.js';
import type { SparseGpState } from './state.js';
import { sparseGpParameters, type SparseGpWorkspace } from './workspace.js';

/**
 * A joint draw of f at the n rows of x: u ~ q(u), then f | u ~ p(f | u) =
 * N(c + K_fu Kuu⁻¹(u − c), K_ff − K_fu Kuu⁻¹ K_uf) (the sparse GP's predictive process). O(n³ + nM²).
 */
export function sampleSparseGpLatent(state: SparseGpState, workspace: SparseGpWorkspace, rng: Rng, x: Float64Array, n: number): Float64Array {
  const M = state.options.M;
  const p = sparseGpParameters(state, workspace);
  const u = sampleSparseGpInducing(state, workspace, rng);
  const kuu = new Float64Array(M * M);
  p.kernel.cross(p.Z, M, p.Z, M, kuu);
  for (let a = 0; a < M; a++) kuu[a * M + a] += p.jitter;
  const lk = new Float64Array(M * M);
  cholesky(kuu, M, lk, { what: 'Kuu (inducing-point covariance)' });
  const kuf = new Float64Array(M * n);
  p.kernel.cross(p.Z, M, x, n, kuf);
  const b = new Float64Array(M * n);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < M; a++) {
      let sum = kuf[a * n + i];
      for (let k = 0; k < a; k++) sum -= lk[a * M + k] * b[k * n + i];
      b[a * n + i] = sum / lk[a * M + a];
    }
  }
  const w = new Float64Array(M);
  for (let a = 0; a < M; a++) {
    let sum = u[a] - p.meanConstant;
    for (let k = 0; k < a; k++) sum -= lk[a * M + k] * w[k];
    w[a] = sum / lk[a * M + a];
  }
  const kff = new Float64Array(n * n);
  p.kernel.cross(x, n, x, n, kff);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let q = 0;
      for (let a = 0; a < M; a++) q += b[a * n + i] * b[a * n + j];
      kff[i * n + j] -= q;
    }
    kff[i * n + i] += p.jitter;
  }
  const lf = new Float64Array(n * n);
  cholesky(kff, n, lf, { what: 'conditional covariance of f given u' });
  const out = new Float64Array(n);
  const eps = new Float64Array(n);
  for (let i = 0; i < n; i++) eps[i] = rng.normal();
  for (let i = 0; i < n; i++) {
    let sum = p.meanConstant;
    for (let a = 0; a < M; a++) sum += b[a * n + i] * w[a];
    for (let j = 0; j <= i; j++) sum += lf[i * n + j] * eps[j];
    out[i] = sum;
  }
  return out;
}
