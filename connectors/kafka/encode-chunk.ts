import type { EncodedChunk } from '../../operators/encoded-chunk.js';
import { EncodedValues } from '../../operators/worker/encoded-values.js';
import type { DecoderSpec } from '../../operators/worker/worker-decoders.js';
import { chunkOffsets } from './chunk-offsets.js';
import type { PortMessage } from './kafka-port.js';

/**
 * Packs the values of `messages[from, to)` of one partition, undecoded, into an {@link EncodedChunk}
 * for the partition's worker to decode (the counterpart of `decodeChunk`): records below
 * `nextOffset` (already learned, a prefix: offsets rise) are skipped, the others packed with their offsets as rows.
 * `consumed` counts the records taken; `nextOffset` is the offset after the last one. With
 * `minibatch`, the worker learns them in updates of that many records (`EncodedChunk.minibatch`).
 */
export function encodeChunk(messages: readonly PortMessage[], from: number, to: number, nextOffset: number | null, parts: { readonly topic: string; readonly partition: number; readonly decoder: DecoderSpec; readonly minibatch?: number }): { chunk: EncodedChunk; consumed: number; nextOffset: number | null } {
  const { first, offsetAt, next } = chunkOffsets(messages, from, to, nextOffset);
  const count = to - first;
  const values = EncodedValues.pack(count, (i) => messages[first + i].value, (i) => offsetAt(first + i));
  const chunk: EncodedChunk = {
    kind: 'encoded', values, decoder: parts.decoder, consumed: count, ...(parts.minibatch === undefined ? {} : { minibatch: parts.minibatch }),
    positions: next === null ? {} : { [`${parts.topic}/${parts.partition}`]: next },
    describe: (index) => messages[first + index],
  };
  return { chunk, consumed: count, nextOffset: next };
}
