import { SnapshotError } from '../../core/snapshot-error.js';

/** A non-negative integer field of a DIRECT snapshot header; anything else is a malformed snapshot. */
export function headerInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new SnapshotError('snapshot header is malformed', { field, value });
  return value;
}
