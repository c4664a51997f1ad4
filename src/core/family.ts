import type { FamilyTraits } from './family-traits.js';
import type { InputLimits } from './input-limits.js';
import type { ModelSnapshot } from './model-snapshot.js';
import type { OnlineModel } from './online-model.js';
import type { OptionDocs } from './option-docs.js';
import type { Task } from './task.js';

/** A model family in the registry: what it is, and how to make a fresh model or restore one. */
export interface Family<Options extends object = object, Model extends OnlineModel = OnlineModel> {
  readonly id: string;
  /** One line: the model and the paper it implements. */
  readonly summary: string;
  /** How it absorbs a stream: what one update does, what merge and forget mean. */
  readonly semantics: string;
  readonly task: Task;
  readonly traits: FamilyTraits;
  /** Whether its models offer `evidenceBound()`, a lower bound on the log evidence (what model selection by the bound compares). */
  readonly evidenceBound: boolean;
  /** Every option with a one-line description (defaults included). */
  readonly options: OptionDocs;
  /** A model of `dim` input features with no data; an unknown option key or a bad value (of `limits` too) throws `ConfigError`. */
  create(dim: number, options?: Options, limits?: InputLimits): Model;
  /**
   * Rebuilds a model bit for bit from its snapshot, migrating an older layout version first; a
   * snapshot of another family, of a newer or unmigratable layout, or malformed throws `SnapshotError`.
   * `limits` are not in the snapshot (they are the caller's setting): given again here, else the defaults.
   */
  restore(snapshot: ModelSnapshot, limits?: InputLimits): Model;
}

/**
 * A family as the runtime meets it, by an id read from a configuration: the same entry, whose
 * `create` takes options of any shape (their keys and values are checked at run time).
 */
export interface RuntimeFamily extends Omit<Family, 'create'> {
  create(dim: number, options?: unknown, limits?: InputLimits): OnlineModel;
}
