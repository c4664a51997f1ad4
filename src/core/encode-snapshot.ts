import type { JsonValue, ModelSnapshot } from './model-snapshot.js';
import { crc32 } from './crc32.js';
import { SNAPSHOT_CONTAINER_VERSION, SNAPSHOT_MAGIC } from './snapshot-format.js';

/**
 * Serialises a snapshot to bytes: magic, container version, a JSON header (family, version, dim,
 * the family header, the array index and an optional `meta` envelope such as created-at or source
 * offsets), padding to 8 bytes, the arrays as little-endian float64, and a trailing CRC-32 of all
 * preceding bytes. {@link decodeSnapshot} inverts it bit for bit.
 */
export function encodeSnapshot(snapshot: ModelSnapshot, meta: { readonly [key: string]: JsonValue } = {}): Uint8Array {
  const names = Object.keys(snapshot.arrays);
  const index = names.map((name) => ({ name, length: snapshot.arrays[name].length }));
  const headerJson = JSON.stringify({ family: snapshot.family, version: snapshot.version, dim: snapshot.dim, header: snapshot.header, arrays: index, meta });
  const headerBytes = new TextEncoder().encode(headerJson);
  const arraysStart = Math.ceil((12 + headerBytes.length) / 8) * 8;
  const valueCount = index.reduce((sum, entry) => sum + entry.length, 0);
  const total = arraysStart + valueCount * 8 + 4;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, SNAPSHOT_MAGIC, true);
  view.setUint32(4, SNAPSHOT_CONTAINER_VERSION, true);
  view.setUint32(8, headerBytes.length, true);
  bytes.set(headerBytes, 12);
  let offset = arraysStart;
  for (const name of names) {
    const array = snapshot.arrays[name];
    for (let i = 0; i < array.length; i++, offset += 8) view.setFloat64(offset, array[i], true);
  }
  view.setUint32(offset, crc32(bytes, 0, offset), true);
  return bytes;
}
