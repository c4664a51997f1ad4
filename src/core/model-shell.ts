import { denseKernels } from '../linalg/dense-kernels.js';
import type { Rng } from '../rng/rng.js';
import type { Batch } from './batch.js';
import { checkFeatures } from './check-features.js';
import { cloneState } from './clone-state.js';
import { ConfigError } from './config-error.js';
import type { FamilyDefinition, FamilyState } from './family-definition.js';
import type { FamilyTraits } from './family-traits.js';
import { familyTraitsOf } from './family-traits-of.js';
import { findBatchProblems, type BatchRules } from './find-batch-problems.js';
import { firstDifference } from './first-difference.js';
import type { InputLimits } from './input-limits.js';
import type { InputProblem } from './input-problem.js';
import { InputError } from './input-error.js';
import { maxAbsInputOf } from './max-abs-input-of.js';
import type { ModelSnapshot } from './model-snapshot.js';
import { NumericalError } from './numerical-error.js';
import type { OnlineModel, PosteriorSummary, UpdateStats } from './online-model.js';
import type { Predictive } from './predictive.js';
import { BernoulliPredictive } from './predictive/bernoulli-predictive.js';
import { scoreByPredict } from './score-by-predict.js';
import { ShapeError } from './shape-error.js';
import { StateLayout } from './state-layout.js';
import type { Task } from './task.js';
import { inputErrorOf } from './validate-batch.js';

/**
 * The one generic `OnlineModel`: a family's pure parts ({@link FamilyDefinition}) around its state.
 * It supplies, the same for every family: batch validation that reports every bad row in one pass
 * (shape, finite features, the task's label coding, weights, magnitudes up to `maxAbsInput`),
 * predict-input validation, an atomic commit (the state is copied before a step, merge or forget and
 * put back, bit for bit, if the step throws or leaves a non-finite state — then a `NumericalError`),
 * merge and forget checks, snapshots with the family's codec, `emptyLike()` and `clone()`. Families with accessors of their own (a
 * covariance, a fitted grid) extend it; their constructor takes `(definition, state, limits?)`.
 */
export class ModelShell<Options extends object = object, State extends FamilyState = FamilyState, Workspace = unknown, Prediction extends Predictive = Predictive> implements OnlineModel {
  /** Present where the family is additive (see {@link FamilyTraits.merge}). */
  readonly merge?: (other: OnlineModel) => void;
  /** Present where the family offers a power prior. */
  readonly forget?: (factor: number) => void;
  /** Present where the family's objective is a lower bound on the log evidence (see {@link FamilyDefinition.evidenceBound}). */
  readonly evidenceBound?: () => number;
  /** The largest |value| of a feature, label or weight this model takes (see {@link InputLimits}). */
  readonly maxAbsInput: number;
  /** What `validate` checks records against: the family's task and weights, and {@link maxAbsInput}. */
  protected readonly rules: BatchRules;
  protected readonly workspace: Workspace;
  private backup: State | undefined;
  /** Whether `backup` holds the state as it was before the running commit. */
  private backedUp = false;
  private readonly layout: StateLayout;
  /** The batch `update` is committing (kept in a field so that the step passed to `commit` is made once, not per update). */
  private pending: Batch | undefined;
  /** Keeps the state in `backup` (once per commit): what a step with `deferredBackup` calls before its first write. */
  private readonly takeBackup = (): void => {
    if (this.backedUp) return;
    if (this.backup === undefined) this.backup = cloneState(this.state);
    else this.copy(this.backup, this.state);
    this.backedUp = true;
  };

  constructor(readonly definition: FamilyDefinition<Options, State, Workspace, Prediction>, protected readonly state: State, limits: InputLimits = {}) {
    this.maxAbsInput = maxAbsInputOf(limits.maxAbsInput);
    this.rules = { task: definition.task, weights: definition.weights, maxAbsInput: this.maxAbsInput };
    this.workspace = definition.workspace?.(state) as Workspace;
    this.layout = StateLayout.of(state);
    if (definition.merge !== undefined) this.merge = (other) => this.mergeFrom(other);
    if (definition.forget !== undefined) this.forget = (factor) => this.forgetBy(factor);
    if (definition.evidenceBound !== undefined) this.evidenceBound = () => definition.evidenceBound!(this.state, this.workspace);
  }

  get family(): string {
    return this.definition.id;
  }

  get dim(): number {
    return this.state.dim;
  }

  get task(): Task {
    return this.definition.task;
  }

  get traits(): FamilyTraits {
    return familyTraitsOf(this.definition);
  }

  get recordsSeen(): number {
    return this.definition.recordsSeen(this.state);
  }

  /** Every bad record of `batch` (one problem per row; rows offset by `batch.firstRow`); a batch of the wrong shape throws `ShapeError`. */
  validate(batch: Batch): InputProblem[] {
    return findBatchProblems(batch, this.state.dim, this.rules);
  }

  /** Checks the batch as `validate` does (leaving X staged in the dense kernels for the step's XᵀX, unstaged before returning), then commits the family's step. */
  update(batch: Batch): UpdateStats {
    try {
      const problems = findBatchProblems(batch, this.state.dim, this.rules, true);
      if (problems.length > 0) throw inputErrorOf(problems);
      if (batch.n === 0) return { records: 0 };
      this.pending = batch;
      return this.commit(this.stepPending, this.definition.deferredBackup === true);
    } finally {
      this.pending = undefined;
      denseKernels.unstage();
    }
  }

  predict(x: Float64Array, offset = 0): Prediction {
    checkFeatures(x, offset, this.state.dim, this.maxAbsInput);
    return this.definition.predict(this.state, this.workspace, x, offset);
  }

  /**
   * The `OnlineModel.scoreInto` of every family: a family with `probability` (a Bernoulli predictive)
   * scores each record without making its predictive; the others through {@link predict}.
   */
  scoreInto(x: Float64Array, y: ArrayLike<number>, n: number, mean: Float64Array, variance: Float64Array, logLoss: Float64Array): Predictive['kind'] | undefined {
    const probability = this.definition.probability;
    if (probability === undefined) return scoreByPredict(this, x, y, n, mean, variance, logLoss);
    const { state, workspace } = this;
    const d = state.dim;
    let kind: Predictive['kind'] | undefined;
    for (let i = 0; i < n; i++) {
      const offset = i * d;
      let prob: number;
      try {
        checkFeatures(x, offset, d, this.maxAbsInput);
        prob = probability(state, workspace, x, offset);
      } catch {
        mean[i] = variance[i] = logLoss[i] = Number.NaN;
        continue;
      }
      kind = 'bernoulli';
      mean[i] = prob;
      variance[i] = BernoulliPredictive.varianceOf(prob);
      logLoss[i] = -BernoulliPredictive.logProbOf(prob, y[i]);
    }
    return kind;
  }

  sample(rng: Rng, out?: Float64Array): Float64Array {
    const sample = this.definition.sample;
    if (sample === undefined) throw new ConfigError(`family ${this.family} has no posterior to sample`, { field: 'family', value: this.family });
    return sample(this.state, this.workspace, rng, out);
  }

  posteriorMean(): Float64Array {
    return this.definition.posteriorMean(this.state, this.workspace);
  }

  summary(): PosteriorSummary {
    return this.definition.posteriorSummary(this.state, this.workspace);
  }

  snapshot(): ModelSnapshot {
    const { header, arrays } = this.definition.codec.encode(this.state);
    return { family: this.family, version: this.definition.codec.version, dim: this.state.dim, header, arrays };
  }

  /** A model of the same family, settings, prior and {@link maxAbsInput} with no data (River's `clone`). */
  emptyLike(): this {
    return this.rebuild(this.definition.create(this.state.dim, this.definition.optionsOf(this.state)));
  }

  /** An independent copy of this model (same state, bit for bit). */
  clone(): this {
    return this.rebuild(cloneState(this.state));
  }

  /**
   * Runs `work` on the state atomically: if it throws, or leaves a state the family does not call
   * finite, the state is put back bit for bit and the error (a `NumericalError` for a non-finite
   * result) is thrown. Caches are reset either way. Subclasses run their own mutations through it.
   * With `deferred` (a family step with `deferredBackup`) the backup is taken when `work` asks for it;
   * a `work` that does not ask has written nothing if it throws.
   */
  protected commit<R>(work: (this: this, state: State, workspace: Workspace) => R, deferred = false): R {
    this.backedUp = false;
    if (!deferred) this.takeBackup();
    try {
      const result = work.call(this, this.state, this.workspace);
      const finite = this.definition.isFinite?.(this.state) ?? this.layout.isFinite(this.state);
      if (!finite) {
        if (!this.backedUp) throw new NumericalError(`${this.family}: the update gave a non-finite posterior without keeping the state it would restore (a family step that skipped its backup wrongly); the model is not usable`, { field: 'posterior' });
        throw new NumericalError(`${this.family}: the update gave a non-finite posterior (an input too large for floating point?); the model is unchanged`, { field: 'posterior' });
      }
      return result;
    } catch (error) {
      if (this.backedUp) this.copy(this.state, this.backup as State);
      throw error;
    } finally {
      if (this.workspace !== undefined) this.definition.reset?.(this.workspace);
    }
  }

  /**
   * The family's step on the batch `update` is committing: a method, so every model calls the same
   * function (a closure made per model, as this was, had V8 throw away `update` and `commit`, compiled
   * for the first model's closure, when a second model first updated).
   */
  private stepPending(state: State, workspace: Workspace): UpdateStats {
    return this.definition.step(state, this.pending as Batch, workspace, this.definition.deferredBackup === true ? this.takeBackup : undefined);
  }

  private copy(target: State, source: State): void {
    if (this.definition.copy === undefined) this.layout.copy(target, source);
    else this.definition.copy(target, source);
  }

  private rebuild(state: State): this {
    const Model = this.constructor as new (definition: FamilyDefinition<Options, State, Workspace, Prediction>, state: State, limits: InputLimits) => this;
    return new Model(this.definition, state, { maxAbsInput: this.maxAbsInput });
  }

  private mergeFrom(other: OnlineModel): void {
    const merge = this.definition.merge!;
    if (!(other instanceof ModelShell) || other.family !== this.family) throw new ShapeError(`cannot merge a ${other.family} model into ${this.family}`, { field: 'family', value: other.family });
    if (other.dim !== this.dim) throw new ShapeError(`cannot merge dimension ${other.dim} into ${this.dim}`, { field: 'dim', value: other.dim });
    const theirs = other.state as State;
    for (const state of [this.state, theirs]) {
      const refusal = merge.refuse?.(state);
      if (refusal !== undefined) throw new ConfigError(`cannot merge ${this.family} models: ${refusal}`, { field: 'family', value: this.family });
    }
    const difference = firstDifference(merge.key(this.state), merge.key(theirs));
    if (difference !== undefined) throw new ConfigError(`cannot merge ${this.family} models with different ${difference === '' ? 'settings' : difference}`, { field: difference || 'settings' });
    this.commit((state, workspace) => merge.apply(state, theirs, workspace));
  }

  private forgetBy(factor: number): void {
    if (typeof factor !== 'number' || !(factor > 0 && factor <= 1)) throw new InputError('forgetting factor must be in (0, 1]', { field: 'factor', value: factor });
    if (factor === 1) return;
    this.commit((state, workspace) => this.definition.forget!(state, factor, workspace));
  }
}
