import { decodeSnapshot } from './decode-snapshot.js';
import type { JsonValue } from './model-snapshot.js';
import { SnapshotError } from './snapshot-error.js';
import { SNAPSHOT_ENVELOPE_VERSION } from './snapshot-envelope-version.js';
import { SNAPSHOT_REASONS, type SnapshotEvent, type SnapshotReason } from './snapshot-event.js';

/**
 * Decodes bytes written by `encodeSnapshotEvent`: the snapshot, its envelope (records seen,
 * positions, time, reason) and the whole `meta` (with any fields a store added, such as a Kafka
 * partition's `nextOffset`). A truncated or corrupt buffer, an envelope of another version or one
 * that lacks its fields is refused with a {@link SnapshotError} naming `source` (a file, a topic key).
 */
export function decodeSnapshotEvent(bytes: Uint8Array, source: string): { event: SnapshotEvent; meta: { readonly [key: string]: JsonValue } } {
  let decoded: ReturnType<typeof decodeSnapshot>;
  try {
    decoded = decodeSnapshot(bytes);
  } catch (error) {
    throw new SnapshotError((error as Error).message, { source, field: 'bytes' }, { cause: error });
  }
  const { snapshot, meta } = decoded;
  if (meta.envelope !== SNAPSHOT_ENVELOPE_VERSION) {
    throw new SnapshotError(`snapshot envelope version ${JSON.stringify(meta.envelope)} is not supported (expects ${SNAPSHOT_ENVELOPE_VERSION})`, { source, field: 'envelope', value: meta.envelope });
  }
  const { createdAt, recordsSeen, positions, reason } = meta;
  const positionsOk = typeof positions === 'object' && positions !== null && !Array.isArray(positions)
    && Object.values(positions).every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 0);
  if (typeof createdAt !== 'string' || typeof recordsSeen !== 'number' || !positionsOk || !SNAPSHOT_REASONS.includes(reason as SnapshotReason)) {
    throw new SnapshotError('snapshot envelope lacks createdAt, recordsSeen, positions or reason', { source, field: 'meta' });
  }
  return {
    event: { snapshot, recordsSeen: recordsSeen as number, positions: positions as { [source: string]: number }, createdAt: createdAt as string, reason: reason as SnapshotReason },
    meta,
  };
}
