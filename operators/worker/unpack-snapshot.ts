import type { ModelSnapshot } from '../../src/core/model-snapshot.js';
import type { PackedSnapshot } from './packed-snapshot.js';

/** Inverse of `packSnapshot`: the arrays are views into `packed.data` (no copy). */
export function unpackSnapshot(packed: PackedSnapshot): ModelSnapshot {
  const arrays: { [name: string]: Float64Array } = {};
  let offset = 0;
  for (const { name, length } of packed.index) {
    arrays[name] = packed.data.subarray(offset, offset + length);
    offset += length;
  }
  return { family: packed.family, version: packed.version, dim: packed.dim, header: packed.header, arrays };
}
