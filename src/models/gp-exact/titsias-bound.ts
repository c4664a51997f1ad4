import { cholesky } from '../../linalg/cholesky.js';
import type { RbfKernel } from '../../kernels/rbf-kernel.js';

const LOG_2PI = 1.8378770664093456;

/** The collapsed bound and the optimal q(u) = N(m, LLᵀ) (unwhitened, L lower M×M). */
export interface TitsiasResult {
  readonly bound: number;
  readonly m: Float64Array;
  readonly L: Float64Array;
}

/**
 * Titsias's (2009) collapsed bound log N(y | 0, Q_ff + σ²I) − tr(K_ff − Q_ff)/(2σ²), Q_ff = K_fu Kuu⁻¹ K_uf,
 * computed via A = Lk⁻¹K_uf/σ, B = I + AAᵀ, and the optimal q(u): S = Kuu Σ⁻¹ Kuu, m = σ⁻² Kuu Σ⁻¹ K_uf y,
 * Σ = Kuu + σ⁻²K_uf K_fu. Its gradient in the hyperparameters and Z equals the uncollapsed β = 1 ELBO's
 * at this q(u) (envelope theorem), which the sparse GP computes. O(nM² + M³).
 */
export function titsiasBound(kernel: RbfKernel, noiseVariance: number, Z: Float64Array, M: number, jitter: number, x: Float64Array, y: Float64Array, n: number): TitsiasResult {
  const kuu = new Float64Array(M * M);
  kernel.cross(Z, M, Z, M, kuu);
  for (let a = 0; a < M; a++) kuu[a * M + a] += jitter;
  const lk = new Float64Array(M * M);
  cholesky(kuu, M, lk, { what: 'Kuu (inducing-point covariance)' });
  const kuf = new Float64Array(M * n);
  kernel.cross(Z, M, x, n, kuf);
  const sigma = Math.sqrt(noiseVariance);
  const A = new Float64Array(M * n);
  for (let a = 0; a < M; a++) {
    for (let i = 0; i < n; i++) {
      let sum = kuf[a * n + i];
      for (let b = 0; b < a; b++) sum -= lk[a * M + b] * A[b * n + i] * sigma;
      A[a * n + i] = sum / lk[a * M + a] / sigma;
    }
  }
  const B = new Float64Array(M * M);
  let traceAAt = 0;
  for (let a = 0; a < M; a++) {
    for (let b = 0; b <= a; b++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += A[a * n + i] * A[b * n + i];
      B[a * M + b] = B[b * M + a] = sum + (a === b ? 1 : 0);
      if (a === b) traceAAt += sum;
    }
  }
  const lb = new Float64Array(M * M);
  cholesky(B, M, lb, { what: 'I + AAᵀ (Titsias bound)' });
  const c = new Float64Array(M);
  let yy = 0;
  for (let i = 0; i < n; i++) yy += y[i] * y[i];
  for (let a = 0; a < M; a++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += A[a * n + i] * y[i];
    sum /= sigma;
    for (let b = 0; b < a; b++) sum -= lb[a * M + b] * c[b];
    c[a] = sum / lb[a * M + a];
  }
  let logDetB = 0;
  let cc = 0;
  for (let a = 0; a < M; a++) {
    logDetB += Math.log(lb[a * M + a]);
    cc += c[a] * c[a];
  }
  const bound = -0.5 * n * (LOG_2PI + Math.log(noiseVariance)) - logDetB - yy / (2 * noiseVariance) + 0.5 * cc
    - (n * kernel.variance) / (2 * noiseVariance) + 0.5 * traceAAt;
  // m = Lk LB⁻ᵀ c; S = Lk B⁻¹ Lkᵀ = GᵀG with G = LB⁻¹Lkᵀ, refactorised into a lower-triangular L.
  const w = new Float64Array(M);
  for (let a = M - 1; a >= 0; a--) {
    let sum = c[a];
    for (let b = a + 1; b < M; b++) sum -= lb[b * M + a] * w[b];
    w[a] = sum / lb[a * M + a];
  }
  const m = new Float64Array(M);
  for (let a = 0; a < M; a++) {
    let sum = 0;
    for (let b = 0; b <= a; b++) sum += lk[a * M + b] * w[b];
    m[a] = sum;
  }
  const G = new Float64Array(M * M);
  for (let col = 0; col < M; col++) {
    const e = new Float64Array(M);
    for (let a = 0; a < M; a++) {
      let sum = lk[col * M + a];
      for (let b = 0; b < a; b++) sum -= lb[a * M + b] * e[b];
      e[a] = sum / lb[a * M + a];
    }
    for (let a = 0; a < M; a++) G[a * M + col] = e[a];
  }
  const S = new Float64Array(M * M);
  for (let a = 0; a < M; a++) {
    for (let b = 0; b <= a; b++) {
      let sum = 0;
      for (let k = 0; k < M; k++) sum += G[k * M + a] * G[k * M + b];
      S[a * M + b] = S[b * M + a] = sum;
    }
  }
  const L = new Float64Array(M * M);
  cholesky(S, M, L, { what: 'optimal q(u) covariance' });
  return { bound, m, L };
}
