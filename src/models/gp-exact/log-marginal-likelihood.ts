import { cholesky } from '../../linalg/cholesky.js';
import { choleskyInverse } from '../../linalg/cholesky-inverse.js';
import type { RbfKernel } from '../../kernels/rbf-kernel.js';

const LOG_2PI = 1.8378770664093456;

/** The factorised training covariance behind an exact GP: chol(K + σ²I) and α = (K + σ²I)⁻¹y. */
export interface ExactGpFactor {
  readonly factor: Float64Array;
  readonly alpha: Float64Array;
}

/**
 * log p(y | X, θ) = −½yᵀ(K + σ²I)⁻¹y − ½log|K + σ²I| − (n/2)log 2π of a zero-mean GP (Rasmussen &
 * Williams 2006, eq. 5.8), with, when `gradient` is given, ∂/∂[log s², log ℓ…, log σ²] from the
 * adjoint K̄ = ½(ααᵀ − (K + σ²I)⁻¹) (eq. 5.9). O(n³).
 */
export function logMarginalLikelihood(kernel: RbfKernel, noiseVariance: number, x: Float64Array, y: Float64Array, n: number,
  gradient?: Float64Array, out?: ExactGpFactor): number {
  const k = new Float64Array(n * n);
  kernel.cross(x, n, x, n, k);
  const c = k.slice();
  for (let i = 0; i < n; i++) c[i * n + i] += noiseVariance;
  const factor = out?.factor ?? new Float64Array(n * n);
  cholesky(c, n, factor, { what: 'K + σ²I (exact GP covariance)' });
  const alpha = out?.alpha ?? new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = y[i];
    for (let j = 0; j < i; j++) sum -= factor[i * n + j] * alpha[j];
    alpha[i] = sum / factor[i * n + i];
  }
  let value = 0;
  for (let i = 0; i < n; i++) value -= 0.5 * alpha[i] * alpha[i] + Math.log(factor[i * n + i]);
  value -= 0.5 * n * LOG_2PI;
  for (let i = n - 1; i >= 0; i--) {
    let sum = alpha[i];
    for (let j = i + 1; j < n; j++) sum -= factor[j * n + i] * alpha[j];
    alpha[i] = sum / factor[i * n + i];
  }
  if (gradient !== undefined) {
    const inverse = new Float64Array(n * n);
    choleskyInverse(factor, n, inverse);
    const adjoint = inverse;
    let traceAdjoint = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) adjoint[i * n + j] = 0.5 * (alpha[i] * alpha[j] - inverse[i * n + j]);
      traceAdjoint += adjoint[i * n + i];
    }
    gradient.fill(0);
    const kernelGradient = gradient.subarray(0, kernel.size);
    kernel.accumulateGradient(adjoint, k, x, n, x, n, kernelGradient);
    gradient[kernel.size] = traceAdjoint * noiseVariance;
  }
  return value;
}
