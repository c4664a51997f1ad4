import type { PortOutgoingMessage } from './kafka-port.js';

/** Most bytes of records per produce request: half the broker's default `message.max.bytes` (1 MiB), a margin for the estimate and the framing. */
const REQUEST_BYTES = 524_288;

/**
 * Cuts `messages` into consecutive slices of at most `maxCount` records and about 512 KiB (a
 * record larger than that goes alone, for the broker to accept or refuse), order kept: each slice
 * is one produce request, under the broker's `message.max.bytes`, which refuses a whole request
 * over it (a send of 3 MB to one partition failed before slicing).
 */
export function produceSlices<T extends PortOutgoingMessage>(messages: readonly T[], maxCount = Number.POSITIVE_INFINITY): T[][] {
  const slices: T[][] = [];
  let slice: T[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = recordBytes(message);
    if (slice.length > 0 && (slice.length >= maxCount || bytes + size > REQUEST_BYTES)) {
      slices.push(slice);
      slice = [];
      bytes = 0;
    }
    slice.push(message);
    bytes += size;
  }
  if (slice.length > 0) slices.push(slice);
  return slices;
}

/**
 * Whether `messages` go out as one request of {@link produceSlices} (no count limit): one record, or
 * several of at most about 512 KiB together. Counts bytes only, allocating nothing, and stops at the
 * first byte over.
 */
export function fitsOneRequest(messages: readonly PortOutgoingMessage[]): boolean {
  if (messages.length <= 1) return messages.length === 1;
  let bytes = 0;
  for (const message of messages) {
    bytes += recordBytes(message);
    if (bytes > REQUEST_BYTES) return false;
  }
  return true;
}

/** A record's bytes in a request, near enough: key, value, header names and values, and 24 bytes of framing. */
function recordBytes(message: PortOutgoingMessage): number {
  let bytes = 24 + byteLength(message.key) + byteLength(message.value);
  if (message.headers !== undefined) {
    for (const [name, value] of Object.entries(message.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) bytes += 8 + Buffer.byteLength(name) + byteLength(v);
    }
  }
  return bytes;
}

function byteLength(data: Buffer | string | null | undefined): number {
  return data === null || data === undefined ? 0 : typeof data === 'string' ? Buffer.byteLength(data) : data.length;
}
