import type { RecordChunk } from '../../operators/record-chunk.js';
import { chunkOffsets } from './chunk-offsets.js';
import type { DeadLetterReason } from './dead-letter-reason.js';
import type { PortMessage } from './kafka-port.js';
import type { ValueDecoder } from './value-decoder.js';

/** Buffers and callbacks of {@link decodeChunk}. */
export interface DecodeChunkParts {
  readonly topic: string;
  readonly partition: number;
  readonly dim: number;
  readonly decoder: ValueDecoder;
  /** Scratch for the features (≥ chunk size × dim), labels and (with a weight field) weights; the chunk gets copies. */
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly weights?: Float64Array;
  /** A record the decoder refused, with why. */
  readonly bad: (message: PortMessage, reason: DeadLetterReason, detail: string) => void;
}

/**
 * Decodes `messages[from, to)` of one partition into a {@link RecordChunk}: records below
 * `nextOffset` (already learned) are skipped, refused ones reported to `bad`, the good ones packed
 * flat with their offsets as rows (read for the first and last only when they are consecutive:
 * `chunkOffsets`). `consumed` counts the records taken (good and bad); `nextOffset` is the offset
 * after the last one.
 */
export function decodeChunk(messages: readonly PortMessage[], from: number, to: number, nextOffset: number | null, parts: DecodeChunkParts): { chunk: RecordChunk; consumed: number; nextOffset: number | null } {
  const { dim: d, decoder, x, y, weights, topic, partition } = parts;
  const { first, offsetAt, next } = chunkOffsets(messages, from, to, nextOffset);
  const good: PortMessage[] = [];
  const rows = new Float64Array(to - first);
  for (let i = first; i < to; i++) {
    const message = messages[i];
    const label = decoder.decode(message.value, x, good.length * d);
    if (label === undefined) parts.bad(message, decoder.failure.reason, decoder.failure.detail);
    else {
      y[good.length] = label;
      if (weights !== undefined) weights[good.length] = decoder.weight;
      rows[good.length] = offsetAt(i);
      good.push(message);
    }
  }
  const n = good.length;
  const consumed = to - first;
  const batch = weights === undefined
    ? { x: x.slice(0, n * d), y: y.slice(0, n), n, d }
    : { x: x.slice(0, n * d), y: y.slice(0, n), weights: weights.slice(0, n), n, d };
  const chunk: RecordChunk = {
    kind: 'chunk', batch, rows: n === rows.length ? rows : rows.slice(0, n), consumed,
    positions: next === null ? {} : { [`${topic}/${partition}`]: next },
    describe: (index) => good[index],
  };
  return { chunk, consumed, nextOffset: next };
}
