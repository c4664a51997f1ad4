/**
 * Where posterior snapshots (the bytes of `encodeSnapshot`, offsets in their `meta`) are kept, by
 * key. `save` (and `remove`) resolves only once the bytes are durable; `latest` returns the last saved bytes of a
 * key (as of the call), or `undefined` when there are none.
 */
export interface SnapshotStore {
  save(key: string, bytes: Uint8Array): Promise<void>;
  latest(key: string): Promise<Uint8Array | undefined>;
  /** Forgets a key (a tombstone on a compacted topic), where the store can; resolves once durable. */
  remove?(key: string): Promise<void>;
  /** Every key with a value (as of the call), where the store can list them. */
  keys?(): Promise<string[]>;
}
