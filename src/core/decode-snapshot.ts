import type { JsonValue, ModelSnapshot } from './model-snapshot.js';
import { crc32 } from './crc32.js';
import { SnapshotError } from './snapshot-error.js';
import { SNAPSHOT_CONTAINER_VERSION, SNAPSHOT_MAGIC } from './snapshot-format.js';

interface EncodedHeader {
  family: string;
  version: number;
  dim: number;
  header: { [key: string]: JsonValue };
  arrays: { name: string; length: number }[];
  meta: { [key: string]: JsonValue };
}

function isEncodedHeader(value: unknown): value is EncodedHeader {
  if (typeof value !== 'object' || value === null) return false;
  const h = value as Record<string, unknown>;
  return typeof h.family === 'string' && typeof h.version === 'number' && typeof h.dim === 'number'
    && typeof h.header === 'object' && h.header !== null && Array.isArray(h.arrays)
    && h.arrays.every((a: unknown) => typeof a === 'object' && a !== null && typeof (a as { name?: unknown }).name === 'string'
      && Number.isInteger((a as { length?: unknown }).length) && ((a as { length: number }).length >= 0));
}

/**
 * Parses bytes written by {@link encodeSnapshot}. A wrong magic, an unknown container version, a
 * truncated buffer, a checksum mismatch (any flipped byte) or a malformed header throws
 * {@link SnapshotError}; the family, version and dimension are checked by the family's restore.
 */
export function decodeSnapshot(bytes: Uint8Array): { snapshot: ModelSnapshot; meta: { [key: string]: JsonValue } } {
  if (bytes.length < 16) throw new SnapshotError(`snapshot is truncated: ${bytes.length} bytes`, { field: 'length', value: bytes.length });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== SNAPSHOT_MAGIC) throw new SnapshotError('not a vbstream snapshot (bad magic bytes)', { field: 'magic' });
  const container = view.getUint32(4, true);
  if (container !== SNAPSHOT_CONTAINER_VERSION) throw new SnapshotError(`unsupported snapshot container version ${container}`, { field: 'container', value: container });
  const stored = view.getUint32(bytes.length - 4, true);
  const actual = crc32(bytes, 0, bytes.length - 4);
  if (stored !== actual) throw new SnapshotError('snapshot checksum mismatch: the bytes are corrupt or truncated', { field: 'checksum', value: stored });
  const headerLength = view.getUint32(8, true);
  if (12 + headerLength > bytes.length - 4) throw new SnapshotError('snapshot header runs past the end of the data', { field: 'header' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(12, 12 + headerLength)));
  } catch (cause) {
    throw new SnapshotError('snapshot header is not valid JSON', { field: 'header' }, { cause });
  }
  if (!isEncodedHeader(parsed)) throw new SnapshotError('snapshot header lacks family, version, dim or the array index', { field: 'header' });
  const arraysStart = Math.ceil((12 + headerLength) / 8) * 8;
  const valueCount = parsed.arrays.reduce((sum, entry) => sum + entry.length, 0);
  if (arraysStart + valueCount * 8 + 4 !== bytes.length) {
    throw new SnapshotError(`snapshot length ${bytes.length} does not match its array index`, { field: 'length', value: bytes.length });
  }
  const arrays: { [name: string]: Float64Array } = {};
  let offset = arraysStart;
  for (const { name, length } of parsed.arrays) {
    const array = new Float64Array(length);
    for (let i = 0; i < length; i++, offset += 8) array[i] = view.getFloat64(offset, true);
    arrays[name] = array;
  }
  return { snapshot: { family: parsed.family, version: parsed.version, dim: parsed.dim, header: parsed.header, arrays }, meta: parsed.meta ?? {} };
}
