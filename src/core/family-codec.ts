import type { JsonValue, ModelSnapshot } from './model-snapshot.js';
import type { SnapshotProblem } from './snapshot-problem.js';

/** A snapshot's family-specific part: a JSON header and named float arrays. */
export interface EncodedState {
  readonly header: { readonly [key: string]: JsonValue };
  readonly arrays: { readonly [name: string]: Float64Array };
}

/**
 * How a family's state becomes a snapshot and back. `version` is the layout written now;
 * `migrations[v]` turns a snapshot of layout v into one of layout v + 1 (the shell applies them in
 * turn, so an old snapshot on a compacted topic still restores after an upgrade). `decode` sees only
 * snapshots of the current version and of this family whose arrays and header numbers are finite
 * (but for the `notYetComputed` markers), and refuses malformed ones with `SnapshotError`; it must
 * copy the arrays it keeps. `invariants` then checks what else a usable state needs.
 */
export interface FamilyCodec<State> {
  readonly version: number;
  encode(state: State): EncodedState;
  decode(snapshot: ModelSnapshot): State;
  readonly migrations?: { readonly [fromVersion: number]: (snapshot: ModelSnapshot) => ModelSnapshot };
  /** Array entries (array name → indices) that hold NaN until first computed, such as the objective of a model with no data; every other entry must be finite. */
  readonly notYetComputed?: { readonly [array: string]: readonly number[] };
  /**
   * The first broken invariant of a decoded state, checked on restore: covariances and precisions
   * positive definite, variances positive, ... (see `snapshotChecks`); `undefined` when it is usable.
   */
  invariants?(state: State): SnapshotProblem | undefined;
}
