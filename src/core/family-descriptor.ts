import type { ModelSnapshot } from './model-snapshot.js';
import type { OnlineModel } from './online-model.js';

/** A model family in the registry: how to make a fresh model and how to restore one. */
export interface FamilyDescriptor<Options = unknown> {
  readonly id: string;
  /** One line for `vbstream --help` and the docs. */
  readonly summary: string;
  /** What the label is: real (`regression`), binary 0/1 or ±1 (`classification`), or a count. */
  readonly task: 'regression' | 'classification' | 'count';
  /** A model of `dim` input features with no data yet; invalid options throw `ConfigError`. */
  create(dim: number, options?: Options): OnlineModel;
  /** Rebuilds a model bit for bit; a foreign or malformed snapshot throws `SnapshotError`. */
  restore(snapshot: ModelSnapshot): OnlineModel;
}
