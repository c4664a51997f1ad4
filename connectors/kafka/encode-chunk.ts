import type { EncodedChunk } from '../../operators/encoded-chunk.js';
import { EncodedValues } from '../../operators/worker/encoded-values.js';
import type { DecoderSpec } from '../../operators/worker/worker-decoders.js';
import type { PortMessage } from './kafka-port.js';

/**
 * Packs the values of `messages[from, to)` of one partition, undecoded, into an {@link EncodedChunk}
 * for the partition's worker to decode (the counterpart of `decodeChunk`): records below
 * `nextOffset` (already learned) are skipped, the others packed with their offsets as rows.
 * `consumed` counts the records taken; `nextOffset` is the offset after the last one.
 */
export function encodeChunk(messages: readonly PortMessage[], from: number, to: number, nextOffset: number | null, parts: { readonly topic: string; readonly partition: number; readonly decoder: DecoderSpec }): { chunk: EncodedChunk; consumed: number; nextOffset: number | null } {
  const taken = messages.slice(from, to).filter((message) => nextOffset === null || Number(message.offset) >= nextOffset);
  const values = EncodedValues.pack(taken.length, (i) => taken[i].value, (i) => Number(taken[i].offset));
  const next = taken.length === 0 ? nextOffset : Number(taken[taken.length - 1].offset) + 1;
  const chunk: EncodedChunk = {
    kind: 'encoded', values, decoder: parts.decoder, consumed: taken.length,
    positions: next === null ? {} : { [`${parts.topic}/${parts.partition}`]: next },
    describe: (index) => taken[index],
  };
  return { chunk, consumed: taken.length, nextOffset: next };
}
