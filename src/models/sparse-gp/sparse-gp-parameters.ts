import type { RbfKernel } from '../../kernels/rbf-kernel.js';

/** The sparse GP's parameters as its objectives read them. `L` is the full M×M lower factor (raw diagonal). */
export interface SparseGpParameters {
  readonly kernel: RbfKernel;
  readonly meanConstant: number;
  readonly M: number;
  /** Inducing inputs, M×d row-major. */
  readonly Z: Float64Array;
  /** Mean of q(u) relative to the prior mean (or of q(v) when whitened). */
  readonly m: Float64Array;
  /** Lower Cholesky factor of the covariance of q(u) (or of q(v) when whitened). */
  readonly L: Float64Array;
  /** q over v with u = c + Lk·v, Lk = chol(Kuu) (whitened), or over u directly. */
  readonly whitened: boolean;
  /** Added to Kuu's diagonal before factorising. */
  readonly jitter: number;
  readonly beta: number;
}

/** Gradient buffers an objective evaluation fills, in the parameterisation evaluated. */
export interface SparseGpGradient {
  readonly m: Float64Array;
  /** Full M×M; entries above the diagonal are left 0. */
  readonly L: Float64Array;
  readonly kernel: Float64Array;
  readonly Z: Float64Array;
  logNoise: number;
  meanConstant: number;
}
