import { describe, expect, it } from 'vitest';
import { decodeChunk } from '../../../connectors/kafka/decode-chunk.js';
import type { DeadLetterReason } from '../../../connectors/kafka/dead-letter-reason.js';
import type { PortMessage } from '../../../connectors/kafka/kafka-port.js';
import { RecordDecoder } from '../../../connectors/kafka/record-decoder.js';

const D = 2;

/** Messages at `offsets` (the one at `bad` not JSON) that count how often their offset is read. */
function counted(offsets: readonly number[], bad: number): { messages: PortMessage[]; reads: () => number } {
  let reads = 0;
  const messages = offsets.map((offset): PortMessage => ({
    key: null,
    value: Buffer.from(offset === bad ? 'not json' : `{"x":[${offset},1],"y":${offset % 2}}`),
    timestamp: '0',
    get offset() {
      reads++;
      return String(offset);
    },
  }));
  return { messages, reads: () => reads };
}

function decode(messages: readonly PortMessage[], from: number, to: number, nextOffset: number | null) {
  const refused: { offset: string; reason: DeadLetterReason }[] = [];
  const parts = { topic: 't', partition: 3, dim: D, decoder: new RecordDecoder({ dim: D, task: 'classification' }), x: new Float64Array(messages.length * D), y: new Float64Array(messages.length), bad: (m: PortMessage, reason: DeadLetterReason) => refused.push({ offset: m.offset, reason }) };
  return { ...decodeChunk(messages, from, to, nextOffset, parts), refused };
}

describe('decodeChunk', () => {
  it.each([
    ['consecutive offsets', [10, 11, 12, 13, 14, 15, 16]],
    ['a gap (compaction, a transaction marker)', [10, 11, 14, 15, 16, 20, 21]],
  ])('skips what was learned, refuses a bad value, packs the good ones with their own offsets as rows and moves to the offset after the last: %s', (_, offsets) => {
    const { messages } = counted(offsets, offsets[4]);
    const { chunk, consumed, nextOffset, refused } = decode(messages, 1, 7, offsets[2]);
    expect(consumed).toBe(5);
    expect(nextOffset).toBe(offsets[6] + 1);
    expect(chunk.positions).toEqual({ 't/3': offsets[6] + 1 });
    expect(refused).toEqual([{ offset: String(offsets[4]), reason: 'bad-json' }]);
    const good = [offsets[2], offsets[3], offsets[5], offsets[6]];
    expect(Array.from(chunk.rows)).toEqual(good);
    expect(Array.from(chunk.batch.x)).toEqual(good.flatMap((o) => [o, 1]));
    expect(Array.from(chunk.batch.y)).toEqual(good.map((o) => o % 2));
    expect(chunk.describe(2)).toBe(messages[5]);
  });

  it('a range with nothing new moves nowhere', () => {
    const { messages } = counted([10, 11], -1);
    const { chunk, consumed, nextOffset } = decode(messages, 0, 2, 12);
    expect([consumed, nextOffset, chunk.batch.n, chunk.positions]).toEqual([0, 12, 0, { 't/3': 12 }]);
  });

  it('reads no offset per record of a range whose offsets are consecutive (a string made per read)', () => {
    const { messages, reads } = counted(Array.from({ length: 100 }, (_, i) => 1000 + i), 1050);
    const { chunk } = decode(messages, 0, 100, 1000);
    expect(chunk.rows[98]).toBe(1099);
    expect(reads()).toBeLessThanOrEqual(4);
  });
});
