import type { JsonValue } from './model-snapshot.js';
import { encodeSnapshot } from './encode-snapshot.js';
import { SNAPSHOT_ENVELOPE_VERSION } from './snapshot-envelope-version.js';
import type { SnapshotEvent } from './snapshot-event.js';

/**
 * Bytes of a snapshot with its envelope: the CRC-checked container of `encodeSnapshot` (family,
 * version, dim, arrays) with `meta` = {envelope, createdAt, recordsSeen, positions, reason}, plus
 * any `extra` fields a store keeps beside them (a Kafka partition's `topic`, `partition`, `nextOffset`).
 */
export function encodeSnapshotEvent(event: SnapshotEvent, extra: { readonly [key: string]: JsonValue } = {}): Uint8Array {
  return encodeSnapshot(event.snapshot, {
    ...extra, envelope: SNAPSHOT_ENVELOPE_VERSION, createdAt: event.createdAt, recordsSeen: event.recordsSeen, positions: { ...event.positions }, reason: event.reason,
  });
}
