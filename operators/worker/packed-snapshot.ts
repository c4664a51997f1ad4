import type { JsonValue, ModelSnapshot } from '../../src/core/model-snapshot.js';

/** A snapshot laid out for a thread hop: the JSON-able parts, and every array in one transferable `Float64Array`. */
export interface PackedSnapshot {
  readonly family: string;
  readonly version: number;
  readonly dim: number;
  readonly header: { readonly [key: string]: JsonValue };
  readonly index: readonly { readonly name: string; readonly length: number }[];
  readonly data: Float64Array;
}

/** Packs a snapshot's arrays into one buffer (transfer `data.buffer`). */
export function packSnapshot(snapshot: ModelSnapshot): PackedSnapshot {
  const index = Object.entries(snapshot.arrays).map(([name, array]) => ({ name, length: array.length }));
  const data = new Float64Array(index.reduce((sum, entry) => sum + entry.length, 0));
  let offset = 0;
  for (const { name, length } of index) {
    data.set(snapshot.arrays[name], offset);
    offset += length;
  }
  return { family: snapshot.family, version: snapshot.version, dim: snapshot.dim, header: snapshot.header, index, data };
}
