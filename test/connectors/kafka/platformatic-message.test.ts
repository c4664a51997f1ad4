import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlatformaticMessage, type PlatformaticRecord } from '../../../connectors/kafka/platformatic-message.js';

const bytes = fc.option(fc.uint8Array({ maxLength: 8 }).map((b) => Buffer.from(b)), { nil: null });
const name = fc.option(fc.constantFrom('a', 'b', 'seq').map((n) => Buffer.from(n)), { nil: null });

describe('a message read from a @platformatic/kafka record', () => {
  it('has the key, value, offset, timestamp and headers kafkajs gives: a repeated name as an array, a header without a name or value left out', () => {
    fc.assert(fc.property(
      fc.record({ key: bytes, value: bytes, offsetDelta: fc.integer({ min: 0, max: 2 ** 20 }), timestampDelta: fc.bigInt({ min: 0n, max: 1n << 40n }), headers: fc.array(fc.tuple(name, bytes), { maxLength: 6 }) }),
      fc.integer({ min: 0, max: 2 ** 52 }), fc.integer({ min: 0, max: 2 ** 44 }),
      (record: PlatformaticRecord, firstOffset, firstTimestamp) => {
        const message = new PlatformaticMessage(record, { firstOffset: BigInt(firstOffset), firstTimestamp: BigInt(firstTimestamp) });
        const offset = firstOffset + record.offsetDelta;
        expect(message.key).toBe(record.key);
        expect(message.value).toBe(record.value);
        expect(message.offset).toBe(String(offset));
        expect(message.timestamp).toBe(String(BigInt(firstTimestamp) + record.timestampDelta));
        const expected: { [key: string]: Buffer[] } = {};
        for (const [n, v] of record.headers) if (n !== null && v !== null) (expected[n.toString()] ??= []).push(v);
        expect(message.headers).toEqual(Object.fromEntries(Object.entries(expected).map(([n, vs]) => [n, vs.length === 1 ? vs[0] : vs])));
        expect(JSON.parse(JSON.stringify(message))).toEqual(JSON.parse(JSON.stringify({ key: message.key, value: message.value, offset: message.offset, timestamp: message.timestamp, headers: message.headers })));
      },
    ));
  });
});
