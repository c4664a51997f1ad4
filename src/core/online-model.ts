import type { Rng } from '../rng/rng.js';
import type { Batch } from './batch.js';
import type { ModelSnapshot } from './model-snapshot.js';
import type { Predictive } from './predictive.js';

/** What `update` reports. Timing is added by the runtime edges, never measured inside `src/`. */
export interface UpdateStats {
  /** Records absorbed by this update. */
  readonly records: number;
  /** The family's objective after the update (ELBO, bound or loss) where it is cheap to know. */
  readonly objective?: number;
  /** Inner iterations the update took, where the family iterates. */
  readonly iterations?: number;
}

/** Scalars that monitoring exports about a posterior. */
export interface PosteriorSummary {
  /** Euclidean norm of the posterior mean of the parameters. */
  readonly meanNorm: number;
  /** log det of the posterior covariance, when the family has one. */
  readonly logDetCovariance?: number;
  /** Trace of the posterior covariance. */
  readonly traceCovariance?: number;
  /**
   * Condition number (largest / smallest eigenvalue) of the posterior covariance: a warning sign
   * for ill-conditioned inputs, where explicit inversions lose accuracy (Drugowitsch §3.5.2).
   */
  readonly conditionNumber?: number;
  /** How many records the posterior represents (the data size, or the effective size N). */
  readonly effectiveDataSize: number;
}

/**
 * The online-model contract every family implements (DESIGN.md). Models are mutable: `update`,
 * `merge` and `forget` change the model in place, and each validates its input first so that a
 * typed error leaves the model exactly as it was.
 */
export interface OnlineModel {
  /** Family id, as in the registry. */
  readonly family: string;
  /** Number of input features a record carries. */
  readonly dim: number;
  /** Records absorbed so far (merges add the other model's count). */
  readonly recordsSeen: number;
  /** Absorbs a batch. */
  update(batch: Batch): UpdateStats;
  /** Predictive distribution of the label of the record whose features are `x[offset .. offset+dim)`. */
  predict(x: Float64Array, offset?: number): Predictive;
  /**
   * Scores the `n` records of `x` (labels `y`) in one call: record i's predictive mean, variance and
   * −log p(y_i) into `mean[i]`, `variance[i]` and `logLoss[i]`, bit for bit those of `predict(x, i·dim)`
   * (NaN for a record `predict` refuses); returns the predictives' kind, undefined when none was scored.
   * Present where a family can do it without a predictive per record (the test-then-train scores).
   */
  scoreInto?(x: Float64Array, y: ArrayLike<number>, n: number, mean: Float64Array, variance: Float64Array, logLoss: Float64Array): Predictive['kind'] | undefined;
  /** Draws the model parameters from the posterior (Thompson sampling) into `out` (allocated if absent). */
  sample(rng: Rng, out?: Float64Array): Float64Array;
  /** Posterior mean of the parameters. */
  posteriorMean(): Float64Array;
  /** Scalars for monitoring. */
  summary(): PosteriorSummary;
  /** Versioned, self-describing state; restoring it rebuilds the model bit for bit. */
  snapshot(): ModelSnapshot;
  /**
   * Folds in a model of the same family and prior fed a disjoint stream (present where the state
   * is additive). Throws a typed error, leaving this model untouched, when the two do not fit.
   */
  merge?(other: OnlineModel): void;
  /**
   * The variational lower bound on the log evidence ln p(y | X) of the data absorbed (present where
   * the family's objective is one): comparing it across models selects among them (Drugowitsch §2.6.4).
   */
  evidenceBound?(): number;
  /** Exponential forgetting toward the prior, `factor` in (0, 1]; 1 is the identity. */
  forget?(factor: number): void;
}
