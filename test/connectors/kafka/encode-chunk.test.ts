import { describe, expect, it } from 'vitest';
import { encodeChunk } from '../../../connectors/kafka/encode-chunk.js';
import type { PortMessage } from '../../../connectors/kafka/kafka-port.js';
import type { DecoderSpec } from '../../../operators/worker/worker-decoders.js';

const spec: DecoderSpec = { kind: 'kafka-json', config: { dim: 1, task: 'classification', maxBytes: 100 }, weighted: false };
const parts = { topic: 't', partition: 2, decoder: spec };
const at = (offsets: readonly number[]): PortMessage[] => offsets.map((offset) => ({ key: null, value: Buffer.from(`{"x":[${offset}],"y":1}`), offset: String(offset), timestamp: '0' }));

describe('encodeChunk', () => {
  it.each([
    ['consecutive offsets', [10, 11, 12, 13, 14, 15]],
    ['a gap (compaction, a transaction marker)', [10, 11, 14, 15, 16, 20]],
  ])('packs each record with its own offset as its row and moves to the offset after the last: %s', (_, offsets) => {
    const messages = at(offsets);
    const { chunk, consumed, nextOffset } = encodeChunk(messages, 1, 6, offsets[2], parts);
    expect(consumed).toBe(4);
    expect(nextOffset).toBe(offsets[5] + 1);
    expect(chunk.positions).toEqual({ 't/2': offsets[5] + 1 });
    expect(Array.from({ length: 4 }, (_, i) => chunk.values.row(i))).toEqual(offsets.slice(2));
    expect(Array.from({ length: 4 }, (_, i) => chunk.values.value(i)?.toString())).toEqual(messages.slice(2).map((m) => m.value?.toString()));
    expect(chunk.describe(0)).toBe(messages[2]);
  });
});
