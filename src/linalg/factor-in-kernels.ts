import { NumericalError } from '../core/numerical-error.js';
import { denseKernels } from './dense-kernels.js';

/** Options of {@link factorInKernels} and of `cholesky`, which runs it. */
export interface CholeskyOptions {
  /** First jitter, relative to the mean diagonal; tried only after the plain factorisation fails. */
  readonly initialJitter?: number;
  /** How many times the jitter is multiplied by 10 and retried before giving up. */
  readonly maxTries?: number;
  /** Name used in the error message (e.g. "posterior precision"). */
  readonly what?: string;
}

/** Where {@link factorInKernels} left the factor: Float64 indices into the dense kernels' memory. */
export interface FactorInKernels {
  /** The jitter that was needed (0 if none). */
  readonly jitter: number;
  /** L (n×n, row-major, upper triangle zeroed). The n² doubles before it (A's copy) and the n² after it are free for the caller. */
  readonly lAt: number;
}

/**
 * `cholesky`'s factorisation without copying L out: A is copied into the dense kernels' memory once for
 * all tries and factored there (wasm/triangular-kernels.ts `choleskyFactor`), retried with jitter·I added
 * (initialJitter·mean(diag A), ×10 each try) while it is not numerically positive definite; after `maxTries`
 * it throws {@link NumericalError}. L stays in the module's memory for the next kernel (e.g. the inverse).
 */
export function factorInKernels(a: Float64Array, n: number, options: CholeskyOptions = {}): FactorInKernels {
  const padded = (n + 3) & ~3;
  const aAt = denseKernels.reserve(2 * n * n + padded * padded);
  const lAt = aAt + n * n;
  const factor = (jitter: number) => denseKernels.kernels.choleskyFactor(aAt * 8, n, lAt * 8, (lAt + n * n) * 8, jitter) !== 0;
  denseKernels.write(aAt, a, n * n);
  if (factor(0)) return { jitter: 0, lAt };
  let meanDiagonal = 0;
  for (let i = 0; i < n; i++) meanDiagonal += Math.abs(a[i * n + i]);
  meanDiagonal = n > 0 && meanDiagonal > 0 ? meanDiagonal / n : 1;
  let jitter = (options.initialJitter ?? 1e-10) * meanDiagonal;
  const maxTries = options.maxTries ?? 6;
  for (let attempt = 0; attempt < maxTries; attempt++, jitter *= 10) {
    if (factor(jitter)) return { jitter, lAt };
  }
  throw new NumericalError(`${options.what ?? 'matrix'} is not positive definite, even with jitter ${(jitter / 10).toExponential(2)} added to the diagonal`, { field: options.what ?? 'matrix' });
}
