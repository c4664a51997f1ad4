import type { ModelSnapshot } from './model-snapshot.js';
import { SnapshotError } from './snapshot-error.js';

/**
 * Refuses a snapshot of another family or format version, and checks that every named array is
 * present with the expected length. Returns the snapshot's arrays for convenience.
 */
export function checkSnapshot(snapshot: ModelSnapshot, family: string, version: number, lengths: { readonly [name: string]: number }): ModelSnapshot['arrays'] {
  if (snapshot.family !== family) {
    throw new SnapshotError(`snapshot is of family "${snapshot.family}", expected "${family}"`, { field: 'family', value: snapshot.family });
  }
  if (snapshot.version !== version) {
    throw new SnapshotError(`snapshot format version ${snapshot.version} is not supported by ${family} (expects ${version})`, { field: 'version', value: snapshot.version });
  }
  if (!Number.isInteger(snapshot.dim) || snapshot.dim < 1) throw new SnapshotError('snapshot dimension must be a positive integer', { field: 'dim', value: snapshot.dim });
  for (const [name, length] of Object.entries(lengths)) {
    const array = snapshot.arrays[name];
    if (array === undefined) throw new SnapshotError(`snapshot lacks array "${name}"`, { field: name });
    if (array.length !== length) throw new SnapshotError(`snapshot array "${name}" has ${array.length} values, expected ${length} for dimension ${snapshot.dim}`, { field: name, value: array.length });
  }
  return snapshot.arrays;
}
