import { encodeSnapshot } from '../src/core/encode-snapshot.js';
import { SNAPSHOT_ENVELOPE_VERSION } from './snapshot-envelope-version.js';
import type { SnapshotEvent } from './snapshot-event.js';

/**
 * Bytes of a snapshot with its envelope: the CRC-checked container of `encodeSnapshot` (family,
 * version, dim, arrays) with `meta` = {envelope, createdAt, recordsSeen, positions, reason}.
 */
export function encodeSnapshotEvent(event: SnapshotEvent): Uint8Array {
  return encodeSnapshot(event.snapshot, {
    envelope: SNAPSHOT_ENVELOPE_VERSION, createdAt: event.createdAt, recordsSeen: event.recordsSeen, positions: { ...event.positions }, reason: event.reason,
  });
}
