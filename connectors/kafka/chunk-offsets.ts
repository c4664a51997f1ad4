import type { PortMessage } from './kafka-port.js';

/** Where a chunk of one partition's messages starts and the offset of each of its messages. */
export interface ChunkOffsets {
  /** The index of the first message at or past the partition's next offset (the ones before were learned already). */
  readonly first: number;
  /** The offset of message `i` (`first ≤ i < to`). */
  readonly offsetAt: (i: number) => number;
  /** The offset after the chunk's last message, or the partition's next offset when the chunk takes none. */
  readonly next: number | null;
}

/**
 * The offsets of `messages[from, to)` of one partition, skipping those below `nextOffset` (already
 * learned: a prefix, since offsets rise). When the span of the rest equals their count there is no gap and
 * each offset follows from the first: a message's offset (a string made per read) is read for the
 * first and last only, not for every record.
 */
export function chunkOffsets(messages: readonly PortMessage[], from: number, to: number, nextOffset: number | null): ChunkOffsets {
  let first = from;
  if (nextOffset !== null) while (first < to && Number(messages[first].offset) < nextOffset) first++;
  const count = to - first;
  if (count === 0) return { first, offsetAt: (i) => Number(messages[i].offset), next: nextOffset };
  const firstOffset = Number(messages[first].offset);
  const lastOffset = Number(messages[to - 1].offset);
  const offsetAt = lastOffset - firstOffset === count - 1 ? (i: number) => firstOffset + i - first : (i: number) => Number(messages[i].offset);
  return { first, offsetAt, next: lastOffset + 1 };
}
