import type { Adam } from '../../optim/adam.js';
import type { Rng } from '../../rng/rng.js';
import type { ResolvedSparseGpOptions } from './options.js';
import type { ParameterLayout } from './parameter-layout.js';

/**
 * Everything a sparse GP is: its settings, the flat parameter vector θ (m, L, kernel, noise, mean, Z
 * as laid out by {@link ParameterLayout}), Adam's moments, the generator for stochastic data terms,
 * and counters. Snapshots carry all of it, so a restored model continues bit for bit.
 */
export interface SparseGpState {
  readonly family: string;
  readonly dim: number;
  readonly options: ResolvedSparseGpOptions;
  readonly layout: ParameterLayout;
  readonly theta: Float64Array;
  adam: Adam;
  rng: Rng;
  /** Whether Z (and q) have been initialised from data. */
  initialised: boolean;
  records: number;
  steps: number;
  /** Last objective value (sum form, Σ_i loss_i + β·R, scaled to the effective data size). */
  lastObjective: number;
}
