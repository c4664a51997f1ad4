import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import type { ModelSnapshot } from '../../src/core/model-snapshot.js';
import type { GlobalPosterior } from './posterior-combiner.js';

/**
 * Decodes a global posterior as `PosteriorCombiner.publish` writes it (the snapshot, and in its meta
 * the offsets, partitions, skipped partitions and version), without restoring the model. Corrupt
 * bytes throw a `SnapshotError`; missing meta fields read as empty.
 */
export function decodeGlobalPosterior(bytes: Uint8Array): Omit<GlobalPosterior, 'model' | 'records'> & { readonly snapshot: ModelSnapshot } {
  const { snapshot, meta } = decodeSnapshot(bytes);
  const offsets = typeof meta.offsets === 'object' && meta.offsets !== null && !Array.isArray(meta.offsets) ? meta.offsets as { [p: string]: number } : {};
  const partitions = Array.isArray(meta.partitions) ? meta.partitions.filter((p): p is number => typeof p === 'number') : Object.keys(offsets).map(Number);
  const skipped = Array.isArray(meta.skipped)
    ? meta.skipped.flatMap((s) => (typeof s === 'object' && s !== null && !Array.isArray(s) && typeof s.partition === 'number' && typeof s.reason === 'string' ? [{ partition: s.partition, reason: s.reason }] : []))
    : [];
  return { snapshot, offsets, partitions, skipped, version: typeof meta.version === 'string' ? meta.version : '' };
}
