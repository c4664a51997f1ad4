import { decodeSnapshotEvent } from './core/decode-snapshot-event.js';
import type { JsonValue } from './core/model-snapshot.js';
import type { OnlineModel } from './core/online-model.js';
import type { SnapshotEvent } from './core/snapshot-event.js';
import { SnapshotError } from './core/snapshot-error.js';
import { VbstreamError } from './core/vbstream-error.js';
import { getFamily } from './registry.js';

/** What a restored snapshot must fit: the family and dimension the pipeline is configured with. */
export interface SnapshotExpectation {
  readonly family?: string;
  readonly dim?: number;
}

/**
 * Decodes bytes written by `encodeSnapshotEvent` and rebuilds the model through the registry (an
 * older layout is migrated by the family). Corrupt bytes, a foreign envelope, a snapshot of a family
 * other than `expect.family` or of another `expect.dim` (the message names both sides), an unknown
 * family or a layout that cannot be migrated is refused with a {@link SnapshotError} naming `source`.
 */
export function restoreSnapshotEvent(bytes: Uint8Array, source: string, expect: SnapshotExpectation = {}): { model: OnlineModel; event: SnapshotEvent; meta: { readonly [key: string]: JsonValue } } {
  const { event, meta } = decodeSnapshotEvent(bytes, source);
  const { snapshot } = event;
  if (expect.family !== undefined && snapshot.family !== expect.family) {
    throw new SnapshotError(`snapshot is of family "${snapshot.family}", the pipeline runs "${expect.family}"`, { source, field: 'family', value: snapshot.family });
  }
  if (expect.dim !== undefined && snapshot.dim !== expect.dim) {
    throw new SnapshotError(`snapshot has ${snapshot.dim} features, the pipeline has ${expect.dim}`, { source, field: 'dim', value: snapshot.dim });
  }
  let model: OnlineModel;
  try {
    model = getFamily(snapshot.family).restore(snapshot);
  } catch (error) {
    const field = error instanceof VbstreamError && error.location.field !== undefined ? error.location.field : 'family';
    throw new SnapshotError(error instanceof VbstreamError ? error.reason : (error as Error).message, { source, field, value: snapshot.family }, { cause: error });
  }
  return { model, event, meta };
}
