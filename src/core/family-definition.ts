import type { Rng } from '../rng/rng.js';
import type { Batch } from './batch.js';
import type { FamilyCodec } from './family-codec.js';
import type { PosteriorSummary, UpdateStats } from './online-model.js';
import type { OptionDocs } from './option-docs.js';
import type { Predictive } from './predictive.js';
import type { Task } from './task.js';

/** The state every family keeps: at least its input width. */
export interface FamilyState {
  readonly dim: number;
}

/**
 * A family's pure parts: everything that differs from one family to the next. The generic
 * `ModelShell` supplies the rest once for all (validation, strict options, atomic commit, merge and
 * forget checks, snapshots with migrations, `emptyLike`). Every function is pure given its inputs
 * except where it says it writes `state`; none keeps references to a batch.
 *
 * `Workspace` holds what a model may cache or reuse between calls (scratch buffers, a fitted
 * posterior derived from the state); the shell calls `reset(workspace)` after every change of the
 * state, so a cache never outlives the state it was computed from.
 */
export interface FamilyDefinition<Options extends object, State extends FamilyState, Workspace = undefined, Prediction extends Predictive = Predictive> {
  /** Registry id, e.g. `vb-linear`. */
  readonly id: string;
  /** One line: the model and the paper it implements. */
  readonly summary: string;
  /** How the family absorbs a stream: what one `update` does, what merge and forget mean. */
  readonly semantics: string;
  readonly task: Task;
  /** Whether a stream cut into batches anywhere gives the same state (see `FamilyTraits.batching`). */
  readonly batching: 'invariant' | 'dependent';
  /** Whether record weights other than 1 are honoured. */
  readonly weights: boolean;
  /** Every option, with its description; unknown keys are refused before `create` runs. */
  readonly options: OptionDocs;
  /** The state of a model with no data. Checks the option values (throwing `ConfigError`); the keys are checked already. */
  create(dim: number, options: Options): State;
  /** Options that recreate an empty model with this state's settings and prior (for `emptyLike`). */
  optionsOf(state: State): Options;
  /** A workspace for a model with this state (scratch and caches). */
  workspace?(state: State): Workspace;
  /** Forgets every cache in the workspace (called after every change of the state). */
  reset?(workspace: Workspace): void;
  /** Records absorbed (merges add the other model's count; forgetting may scale it). */
  recordsSeen(state: State): number;
  /**
   * Absorbs a batch whose shape, features, labels and weights the shell has checked. Writes the
   * new state over `state` (the shell keeps the old one and puts it back if this throws or leaves a
   * non-finite state). With {@link deferredBackup} the shell passes `backup` instead of keeping the
   * old state up front.
   */
  step(state: State, batch: Batch, workspace: Workspace, backup?: () => void): UpdateStats;
  /**
   * Whether `step` decides itself when the shell keeps the old state: it is handed a `backup` callback
   * and calls it before its first write unless it has checked that nothing can fail after that write
   * (it then throws, if at all, before writing, and leaves a state {@link isFinite} accepts). For a
   * family whose one-record step can plan its change before writing it, so a record pays for no copy.
   */
  readonly deferredBackup?: boolean;
  /** The predictive distribution of the label of the record at `x[offset .. offset + dim)` (checked finite). */
  predict(state: State, workspace: Workspace, x: Float64Array, offset: number): Prediction;
  /**
   * Where `predict` gives a `BernoulliPredictive`: its success probability, computed exactly as
   * `predict` does (with the same effects on the workspace) but without making the predictive, so
   * that the shell scores a batch allocating nothing per record (`ModelShell.scoreInto`).
   */
  readonly probability?: (state: State, workspace: Workspace, x: Float64Array, offset: number) => number;
  /** A posterior draw of the parameters into `out` (allocated when absent). */
  sample?(state: State, workspace: Workspace, rng: Rng, out?: Float64Array): Float64Array;
  posteriorMean(state: State, workspace: Workspace): Float64Array;
  posteriorSummary(state: State, workspace: Workspace): PosteriorSummary;
  readonly codec: FamilyCodec<State>;
  /**
   * Where the state is additive: `key` is what must be equal for two models to merge (the prior,
   * the grid, the settings that shape the statistics; compared bit for bit), `apply` folds
   * `other` into `into`, and `exact` says whether the result is one model fed both streams (else it
   * is the SDA-Bayes combination). `refuse` may refuse a merge the key cannot express (a mode).
   */
  readonly merge?: {
    readonly exact: boolean;
    key(state: State): unknown;
    refuse?(state: State): string | undefined;
    apply(into: State, other: State, workspace: Workspace): void;
  };
  /**
   * The variational lower bound on the log evidence ln p(y | X) of the data absorbed, at the current
   * q (with all its constants, so that models of different features compare): present only where the
   * family's objective is such a bound. It bounds the evidence of one batch fit of the data (Drugowitsch
   * §2.6.4, §3.6.3); after streamed updates it is the bound of the streamed posterior.
   */
  evidenceBound?(state: State, workspace: Workspace): number;
  /** Power prior: old evidence scaled by `factor` in (0, 1) toward the prior. */
  forget?(state: State, factor: number, workspace: Workspace): void;
  /** Whether the state is usable after a step (default: every float array in it is finite). */
  isFinite?(state: State): boolean;
  /**
   * Overwrites `target` with `source` (the shell's backup before a step and its rollback after a
   * failed one); default: the generic copy of every field. A family whose updates are often a single
   * record gives its own, so the backup costs a few array copies and no field lookups.
   */
  copy?(target: State, source: State): void;
}
