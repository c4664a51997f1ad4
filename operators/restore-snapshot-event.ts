import { decodeSnapshot } from '../src/core/decode-snapshot.js';
import type { OnlineModel } from '../src/core/online-model.js';
import { SnapshotError } from '../src/core/snapshot-error.js';
import { VbstreamError } from '../src/core/vbstream-error.js';
import { getFamily } from '../src/registry.js';
import { SNAPSHOT_ENVELOPE_VERSION } from './snapshot-envelope-version.js';
import type { SnapshotEvent, SnapshotReason } from './snapshot-event.js';

const REASONS: readonly SnapshotReason[] = ['records', 'interval', 'complete'];

/**
 * Decodes bytes written by `encodeSnapshotEvent` and rebuilds the model through the registry.
 * A truncated or corrupt buffer, an envelope of another version, a snapshot of a family other than
 * `expect.family` (or of another `expect.dim`), an unknown family or a family layout version the
 * code does not read is refused with a {@link SnapshotError} naming `source` (a file, a topic).
 */
export function restoreSnapshotEvent(bytes: Uint8Array, source: string, expect: { readonly family?: string; readonly dim?: number } = {}): { model: OnlineModel; event: SnapshotEvent } {
  const fail = (reason: string, field: string, value?: unknown, cause?: unknown): never => {
    throw new SnapshotError(reason, value === undefined ? { source, field } : { source, field, value }, cause === undefined ? undefined : { cause });
  };
  let decoded: ReturnType<typeof decodeSnapshot>;
  try {
    decoded = decodeSnapshot(bytes);
  } catch (error) {
    return fail((error as Error).message, 'bytes', undefined, error);
  }
  const { snapshot, meta } = decoded;
  if (meta.envelope !== SNAPSHOT_ENVELOPE_VERSION) fail(`snapshot envelope version ${JSON.stringify(meta.envelope)} is not supported (expects ${SNAPSHOT_ENVELOPE_VERSION})`, 'envelope', meta.envelope);
  const { createdAt, recordsSeen, positions, reason } = meta;
  const positionsOk = typeof positions === 'object' && positions !== null && !Array.isArray(positions) && Object.values(positions).every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 0);
  if (typeof createdAt !== 'string' || typeof recordsSeen !== 'number' || !positionsOk || !REASONS.includes(reason as SnapshotReason)) {
    fail('snapshot envelope lacks createdAt, recordsSeen, positions or reason', 'meta');
  }
  if (expect.family !== undefined && snapshot.family !== expect.family) fail(`snapshot is of family "${snapshot.family}", the pipeline runs "${expect.family}"`, 'family', snapshot.family);
  if (expect.dim !== undefined && snapshot.dim !== expect.dim) fail(`snapshot has ${snapshot.dim} features, the pipeline has ${expect.dim}`, 'dim', snapshot.dim);
  let model: OnlineModel;
  try {
    model = getFamily(snapshot.family).restore(snapshot);
  } catch (error) {
    return fail(error instanceof VbstreamError ? error.reason : (error as Error).message, error instanceof VbstreamError && error.location.field !== undefined ? error.location.field : 'family', snapshot.family, error);
  }
  return { model, event: { snapshot, recordsSeen: recordsSeen as number, positions: positions as { [source: string]: number }, createdAt: createdAt as string, reason: reason as SnapshotReason } };
}
