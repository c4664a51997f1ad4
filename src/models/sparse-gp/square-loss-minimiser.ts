import { cholesky } from '../../linalg/cholesky.js';
import { choleskySolve } from '../../linalg/cholesky-solve.js';
import type { SparseGpParameters } from './sparse-gp-parameters.js';

/**
 * The square-loss DLM minimiser in m (Wei, Sheth & Khardon 2021, App. C): for
 * scale·½Σ(μ_i − y_i)² + ½β mᵀKuu⁻¹m it is m* = Kuu (scale·KufKfu + βKuu)⁻¹ scale·Kuf (y − c),
 * written into `out` (unwhitened, relative to the constant mean c). O(nM² + M³).
 */
export function squareLossMinimiser(p: SparseGpParameters, x: Float64Array, y: Float64Array, n: number, scale: number, out: Float64Array): void {
  const M = p.M;
  const kuu = new Float64Array(M * M);
  const kuf = new Float64Array(M * n);
  p.kernel.cross(p.Z, M, p.Z, M, kuu);
  for (let a = 0; a < M; a++) kuu[a * M + a] += p.jitter;
  p.kernel.cross(p.Z, M, x, n, kuf);
  const system = new Float64Array(M * M);
  const rhs = new Float64Array(M);
  for (let a = 0; a < M; a++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += kuf[a * n + i] * (y[i] - p.meanConstant);
    rhs[a] = scale * sum;
    for (let b = 0; b <= a; b++) {
      let e = 0;
      for (let i = 0; i < n; i++) e += kuf[a * n + i] * kuf[b * n + i];
      system[a * M + b] = system[b * M + a] = scale * e + p.beta * kuu[a * M + b];
    }
  }
  const factor = new Float64Array(M * M);
  cholesky(system, M, factor, { what: 'square-loss DLM system KufKfu + βKuu' });
  const w = new Float64Array(M);
  choleskySolve(factor, M, rhs, w);
  for (let a = 0; a < M; a++) {
    let sum = 0;
    for (let b = 0; b < M; b++) sum += kuu[a * M + b] * w[b];
    out[a] = sum;
  }
}
