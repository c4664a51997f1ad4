import { SnapshotError } from '../../src/core/snapshot-error.js';

/**
 * Where a source resumes from a restored snapshot's `positions`: the offset stored under its
 * content `identity` (or, for snapshots written before identities, under its `name`); 0 when the
 * snapshot holds no positions. A snapshot with positions of other data only is refused with a
 * {@link SnapshotError} — resuming it would apply its offset to other records and double-count or
 * skip them silently.
 */
export function resumeOffset(positions: { readonly [source: string]: number }, source: { readonly identity: string; readonly name: string }, snapshot: string, names: { readonly [identity: string]: unknown } = {}): number {
  const own = positions[source.identity] ?? positions[source.name];
  if (own !== undefined) return own;
  const keys = Object.keys(positions);
  if (keys.length === 0) return 0;
  const described = keys.map((key) => (typeof names[key] === 'string' ? `${names[key] as string} (${key})` : key)).join(', ');
  throw new SnapshotError(
    `snapshot ${snapshot} was taken reading ${described}, but this run reads ${source.name} (${source.identity}), which is other data: start without --resume, or run on the data the snapshot was taken on`,
    { source: snapshot, field: 'positions', value: keys },
  );
}
