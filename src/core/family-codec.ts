import type { JsonValue, ModelSnapshot } from './model-snapshot.js';

/** A snapshot's family-specific part: a JSON header and named float arrays. */
export interface EncodedState {
  readonly header: { readonly [key: string]: JsonValue };
  readonly arrays: { readonly [name: string]: Float64Array };
}

/**
 * How a family's state becomes a snapshot and back. `version` is the layout written now;
 * `migrations[v]` turns a snapshot of layout v into one of layout v + 1 (the shell applies them in
 * turn, so an old snapshot on a compacted topic still restores after an upgrade). `decode` sees only
 * snapshots of the current version and of this family, and refuses malformed ones with
 * `SnapshotError`; it must copy the arrays it keeps.
 */
export interface FamilyCodec<State> {
  readonly version: number;
  encode(state: State): EncodedState;
  decode(snapshot: ModelSnapshot): State;
  readonly migrations?: { readonly [fromVersion: number]: (snapshot: ModelSnapshot) => ModelSnapshot };
}
