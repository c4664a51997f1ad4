import type { ResolvedSparseGpOptions, SparseGpOptions } from './options.js';

/** The options that resolve to `resolved` again (for `emptyLike` and for checking a snapshot's settings). */
export function sparseGpOptionsOf(resolved: ResolvedSparseGpOptions): SparseGpOptions {
  const { ard, variance, lengthscale, Z, dataSize, ...rest } = resolved;
  return { ...rest, kernel: { type: ard ? 'rbf-ard' : 'rbf', variance, lengthscale }, Z: Z ?? undefined, dataSize: dataSize ?? undefined };
}
