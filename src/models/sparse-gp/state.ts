import { RbfKernel } from '../../kernels/rbf-kernel.js';
import { cholesky } from '../../linalg/cholesky.js';
import { Adam } from '../../optim/adam.js';
import { Rng } from '../../rng/rng.js';
import { kmeansPlusPlus } from './kmeans-plus-plus.js';
import type { ResolvedSparseGpOptions, SparseGpLikelihoodName, SparseGpOptions } from './options.js';
import { ParameterLayout } from './parameter-layout.js';
import { resolveSparseGpOptions } from './resolve-options.js';

/**
 * Everything a sparse GP is: its settings, the flat parameter vector θ (m, L, kernel, noise, mean, Z
 * as laid out by {@link ParameterLayout}), Adam's moments, the generator for k-means++ and the
 * stochastic data terms, and counters. Snapshots carry all of it, so a restored model continues bit for bit.
 */
export interface SparseGpState {
  readonly dim: number;
  readonly options: ResolvedSparseGpOptions;
  readonly layout: ParameterLayout;
  readonly theta: Float64Array;
  readonly adam: Adam;
  readonly rng: Rng;
  /** Whether Z (and q) have been initialised from data. */
  initialised: boolean;
  records: number;
  steps: number;
  /** Last objective value (sum form, Σ_i loss_i + β·R, scaled to the effective data size). */
  lastObjective: number;
}

/** A fresh model's state; Z comes from `options.Z` now or, at the first update, from that batch. A bad option value throws `ConfigError`. */
export function createSparseGpState(dim: number, options: SparseGpOptions, likelihoods: readonly SparseGpLikelihoodName[]): SparseGpState {
  const o = resolveSparseGpOptions(dim, options, likelihoods);
  const kernel = new RbfKernel(dim, o.ard, o.variance, o.ard ? o.lengthscale : o.lengthscale[0]);
  const layout = new ParameterLayout(o.M, dim, kernel.size);
  const theta = new Float64Array(layout.size);
  theta.set(kernel.params, layout.kernel);
  theta[layout.noise] = Math.log(o.noiseVariance);
  const state: SparseGpState = {
    dim, options: o, layout, theta, adam: new Adam(layout.size, { learningRate: o.learningRate }), rng: Rng.fromSeed(o.seed),
    initialised: false, records: 0, steps: 0, lastObjective: Number.NaN,
  };
  if (o.Z !== null) initialiseSparseGp(state, kernel, Float64Array.from(o.Z.flat()), o.M);
  return state;
}

/**
 * Sets Z from `source` rows (the given `options.Z`, k-means++ seeding, or the first M rows with
 * `zInit: "first"`) and q to the prior: m = 0, L = I (whitened) or chol(Kuu + jitter·I). `kernel` is
 * scratch, set from θ here.
 */
export function initialiseSparseGp(state: SparseGpState, kernel: RbfKernel, source: Float64Array, rows: number): void {
  const { layout, theta, options: o, dim } = state;
  const M = o.M;
  const Z = theta.subarray(layout.z, layout.z + M * dim);
  if (o.Z !== null) Z.set(source);
  else if (o.zInit === 'first' && rows >= M) Z.set(source.subarray(0, M * dim));
  else kmeansPlusPlus(source, rows, dim, M, state.rng, Z);
  theta.fill(0, 0, layout.kernel);
  if (!o.whitened) {
    kernel.params.set(theta.subarray(layout.kernel, layout.kernel + kernel.size));
    const kuu = new Float64Array(M * M);
    kernel.cross(Z, M, Z, M, kuu);
    for (let a = 0; a < M; a++) kuu[a * M + a] += o.jitter;
    const lk = new Float64Array(M * M);
    cholesky(kuu, M, lk, { what: 'Kuu (inducing-point covariance)' });
    layout.packL(lk, theta);
  }
  state.initialised = true;
}
